#include "scriptrun/ChildProcess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ts::scriptrun {
namespace {

std::vector<char*> pointers(const std::vector<std::string>& strings) {
    std::vector<char*> p;
    for (const auto& s : strings)
        p.push_back(const_cast<char*>(s.c_str()));
    p.push_back(nullptr);
    return p;
}

// Between fork and exec only async-signal-safe calls: the child reports a
// failure by writing errno to the error pipe (close-on-exec, so a successful
// exec closes it and the parent reads end-of-file).
[[noreturn]] void childExec(const ProcessSpec& spec, char** argv, char** envp, int out, int err,
                            int report, pid_t parent) {
    auto fail = [report](int stage) {
        const int code[2] = {stage, errno};
        [[maybe_unused]] auto n = ::write(report, code, sizeof code);
        ::_exit(127);
    };
    ::setpgid(0, 0);
    // Stop's SIGINT must reach the script as Ctrl-C would, whatever this
    // process inherited: a Trainscope started in the background by a
    // non-interactive shell ignores SIGINT, and exec keeps an ignored signal
    // ignored; a GUI thread may block some. Default handlers, nothing blocked.
    for (const int sig : {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE})
        ::signal(sig, SIG_DFL);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127); // the parent died before prctl
    const int null = ::open("/dev/null", O_RDONLY);
    if (null < 0 || ::dup2(null, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) fail(0);
    if (!spec.cwd.empty() && ::chdir(spec.cwd.c_str()) != 0) fail(1);
    ::execvpe(argv[0], argv, envp);
    fail(2);
    ::_exit(127);
}

void makePipe(int fds[2]) {
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
}

} // namespace

ChildProcess::ChildProcess(const ProcessSpec& spec) {
    if (spec.argv.empty()) throw std::runtime_error("no program to start");
    auto argv = pointers(spec.argv);
    auto envp = pointers(spec.env);
    int out[2], err[2], report[2];
    makePipe(out);
    makePipe(err);
    makePipe(report);
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ == 0) childExec(spec, argv.data(), envp.data(), out[1], err[1], report[1], parent);
    const int fork_errno = errno;
    for (int fd : {out[1], err[1], report[1]})
        ::close(fd);
    out_ = out[0];
    err_ = err[0];
    if (pid_ < 0) {
        ::close(report[0]);
        throw std::runtime_error(std::string("cannot start a process: ") +
                                 std::strerror(fork_errno));
    }
    ::setpgid(pid_, pid_); // as the child does: whichever runs first
    int code[2] = {0, 0};
    const ssize_t got = ::read(report[0], code, sizeof code);
    ::close(report[0]);
    if (got == ssize_t(sizeof code)) {
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
        const std::string what = code[0] == 0   ? "cannot set up its input and output"
                                 : code[0] == 1 ? "cannot enter the folder " + spec.cwd
                                                : "cannot be run";
        throw std::runtime_error(spec.argv[0] + ": " + what + " (" + std::strerror(code[1]) + ")");
    }
}

ChildProcess::~ChildProcess() {
    if (pid_ > 0 && !status_) {
        signalGroup(SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
    closeStdout();
    closeStderr();
}

void ChildProcess::closeStdout() {
    if (out_ >= 0) ::close(out_);
    out_ = -1;
}

void ChildProcess::closeStderr() {
    if (err_ >= 0) ::close(err_);
    err_ = -1;
}

void ChildProcess::signalGroup(int signal) const {
    if (pid_ > 0 && !status_) ::kill(-pid_, signal);
}

std::optional<int> ChildProcess::poll() {
    if (status_ || pid_ <= 0) return status_;
    int raw = 0;
    const pid_t got = ::waitpid(pid_, &raw, WNOHANG);
    if (got != pid_) return std::nullopt;
    if (WIFSIGNALED(raw)) {
        term_signal_ = WTERMSIG(raw);
        status_ = 128 + term_signal_;
    } else {
        status_ = WEXITSTATUS(raw);
    }
    // What the script started in its group (torchrun's ranks, DataLoader
    // workers) goes with it.
    ::kill(-pid_, SIGKILL);
    return status_;
}

} // namespace ts::scriptrun
