#pragma once
// The user's script as a child process: its own process group (so a stop
// reaches torchrun's ranks too), standard input from /dev/null (a script
// that reads it gets end-of-file, never a hang), standard output and error
// on pipes, and a parent-death signal (Trainscope closed or killed: the
// script is stopped, never orphaned).
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace ts::scriptrun {

struct ProcessSpec {
    std::vector<std::string> argv; // argv[0] looked up on PATH when it has no '/'
    std::vector<std::string> env;  // the whole environment, NAME=VALUE
    std::string cwd;               // empty: Trainscope's
};

class ChildProcess {
public:
    // Throws std::runtime_error naming the program when it cannot start.
    explicit ChildProcess(const ProcessSpec& spec);
    ~ChildProcess(); // kills the group when still running, closes the pipes
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    int stdoutFd() const { return out_; }
    int stderrFd() const { return err_; }
    // Closes a pipe that reached end-of-file.
    void closeStdout();
    void closeStderr();
    // To the whole group (SIGINT for a stop the script can catch, SIGKILL).
    void signalGroup(int signal) const;
    // The exit status once it ended (128 + N when killed by signal N), without
    // waiting; nullopt while it runs.
    std::optional<int> poll();
    // The signal that ended it, 0 when it exited.
    int termSignal() const { return term_signal_; }

private:
    pid_t pid_ = -1;
    int out_ = -1;
    int err_ = -1;
    std::optional<int> status_;
    int term_signal_ = 0;
};

} // namespace ts::scriptrun
