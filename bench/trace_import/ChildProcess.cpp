#include "ChildProcess.h"

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace bench {

namespace {

std::vector<std::string>
environmentWith(const std::vector<std::pair<std::string, std::string>>& env) {
    std::vector<std::string> result;
    for (char** e = environ; *e; ++e) {
        const std::string entry(*e);
        bool replaced = false;
        for (const auto& [name, value] : env)
            replaced = replaced || entry.compare(0, name.size() + 1, name + "=") == 0;
        if (!replaced) result.push_back(entry);
    }
    for (const auto& [name, value] : env)
        result.push_back(name + "=" + value);
    return result;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> result;
    for (std::string& s : strings)
        result.push_back(s.data());
    result.push_back(nullptr);
    return result;
}

std::string tail(const std::filesystem::path& file, size_t max) {
    std::ifstream in(file, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return text.size() > max ? text.substr(text.size() - max) : text;
}

} // namespace

ChildRun runChild(const std::vector<std::string>& argv,
                  const std::vector<std::pair<std::string, std::string>>& env, bool capture_out,
                  const std::filesystem::path& err_file) {
    std::vector<std::string> args = argv;
    std::vector<std::string> vars = environmentWith(env);
    std::vector<char*> arg_ptrs = pointers(args);
    std::vector<char*> var_ptrs = pointers(vars);

    int pipe_fds[2] = {-1, -1};
    if (capture_out && pipe2(pipe_fds, O_CLOEXEC) != 0)
        throw std::runtime_error("cannot create a pipe for " + argv[0]);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (capture_out)
        posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    else
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);

    ChildRun run;
    const auto start = std::chrono::steady_clock::now();
    run.spawned_at_s = std::chrono::duration<double>(start.time_since_epoch()).count();
    pid_t pid = 0;
    const int spawn_error =
        posix_spawn(&pid, args[0].c_str(), &actions, nullptr, arg_ptrs.data(), var_ptrs.data());
    posix_spawn_file_actions_destroy(&actions);
    if (capture_out) close(pipe_fds[1]);
    if (spawn_error != 0) {
        if (capture_out) close(pipe_fds[0]);
        throw std::runtime_error("cannot start " + argv[0]);
    }
    if (capture_out) {
        char buf[4096];
        ssize_t n = 0;
        while ((n = read(pipe_fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
            if (n > 0) run.out.append(buf, static_cast<size_t>(n));
        close(pipe_fds[0]);
    }
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.peak_rss_kb = usage.ru_maxrss; // KiB on Linux
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.err_tail = tail(err_file, 2000);
    return run;
}

std::filesystem::path programDir() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::current_path() : exe.parent_path();
}

} // namespace bench
