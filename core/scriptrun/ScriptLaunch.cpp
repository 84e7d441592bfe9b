#include "scriptrun/ScriptLaunch.h"

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include <nlohmann/json.hpp>

#include "util/ErrorText.h"

extern char** environ;

namespace ts::scriptrun {
namespace fs = std::filesystem;
using nlohmann::json;

ProfileConfig ScriptRunOptions::scriptProfileDefaults() {
    ProfileConfig p;
    p.enabled = true;
    p.skip_first = 5;
    p.recorder = "kineto";
    return p;
}

std::string ScriptRunOptions::label() const {
    return module.empty() ? fs::path(script).stem().string() : module;
}

std::vector<ConfigIssue> checkScriptOptions(const ScriptRunOptions& o) {
    std::vector<ConfigIssue> issues;
    if (o.script.empty() == o.module.empty())
        issues.push_back({o.module.empty() ? "script" : "module", o.script + o.module,
                          "give a script or a module (-m), not both"});
    const fs::path cwd = o.cwd.empty() ? fs::current_path() : fs::path(o.cwd);
    std::error_code ec;
    if (!o.cwd.empty() && !fs::is_directory(cwd, ec))
        issues.push_back({"cwd", o.cwd, "no such working folder: " + o.cwd});
    else if (!o.script.empty() && !fs::is_regular_file(cwd / o.script, ec))
        issues.push_back({"script", o.script,
                          "no such script: " + o.script +
                              (o.cwd.empty() ? "" : " (in the working folder " + o.cwd + ")")});
    if (o.nproc_per_node < 1 || o.nproc_per_node > 1024)
        issues.push_back({"nproc_per_node", std::to_string(o.nproc_per_node),
                          "ranks: " + std::to_string(o.nproc_per_node) + " is not 1 to 1024"});
    if (o.memory_every < 0)
        issues.push_back({"memory_every", std::to_string(o.memory_every), "must be 0 or more"});
    for (const auto& e : o.env)
        if (e.find('=') == std::string::npos || e.front() == '=')
            issues.push_back({"env", e, "environment entry '" + e + "': expected NAME=VALUE"});
    return issues;
}

namespace {

// Reads a child's output until it ends or the deadline passes.
std::string readAll(ChildProcess& child, double timeout_s) {
    std::string text;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (child.stdoutFd() >= 0 || child.stderrFd() >= 0) {
        if (std::chrono::steady_clock::now() > deadline) break;
        pollfd fds[2] = {{child.stdoutFd(), POLLIN, 0}, {child.stderrFd(), POLLIN, 0}};
        if (::poll(fds, 2, 200) <= 0) continue;
        for (int i = 0; i < 2; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP))) continue;
            char buffer[4096];
            const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
            if (got > 0) {
                text.append(buffer, size_t(got));
                continue;
            }
            i == 0 ? child.closeStdout() : child.closeStderr();
        }
    }
    return text;
}

std::vector<std::string> currentEnvironment() {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e)
        env.emplace_back(*e);
    return env;
}

void setVariable(std::vector<std::string>& env, const std::string& name, const std::string& value) {
    const std::string prefix = name + "=";
    for (auto& e : env)
        if (e.rfind(prefix, 0) == 0) {
            e = prefix + value;
            return;
        }
    env.push_back(prefix + value);
}

std::string variable(const std::vector<std::string>& env, const std::string& name) {
    const std::string prefix = name + "=";
    for (const auto& e : env)
        if (e.rfind(prefix, 0) == 0) return e.substr(prefix.size());
    return {};
}

} // namespace

InterpreterInfo checkInterpreter(const std::string& python, double timeout_s) {
    InterpreterInfo info;
    info.python = python;
    const char* ask = "import sys; print('python', sys.version.split()[0], flush=True); "
                      "import torch; print('torch', torch.__version__.split('+')[0])";
    std::string output;
    try {
        ChildProcess child({{python, "-c", ask}, currentEnvironment(), {}});
        output = readAll(child, timeout_s);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!child.poll() && std::chrono::steady_clock::now() < deadline)
            ::usleep(10000);
    } catch (const std::exception& e) {
        info.error = "no Python interpreter '" + python + "' (" + e.what() +
                     "): pick the Python of the environment your script runs in";
        return info;
    }
    std::istringstream in(output);
    std::string word, value;
    while (in >> word) {
        std::getline(in, value);
        value = value.empty() ? value : value.substr(1);
        if (word == "python") info.python_version = value;
        if (word == "torch") info.torch_version = value;
    }
    if (info.python_version.empty())
        info.error =
            "'" + python + "' did not run as a Python interpreter: " + lastLines(output, 1);
    else if (info.torch_version.empty())
        info.error = "the interpreter " + python + " (Python " + info.python_version +
                     ") has no torch (" + lastLines(output, 1) +
                     "): pick the Python of the environment your script runs in, e.g. "
                     "~/venv/bin/python";
    return info;
}

fs::path probeFolder() {
    auto holds = [](const fs::path& dir) {
        std::error_code ec;
        return fs::is_regular_file(dir / "trainscope_probe" / "__main__.py", ec);
    };
    if (const char* path = std::getenv("TRAINSCOPE_PROBE_PATH")) {
        if (holds(path)) return path;
        throw std::runtime_error(std::string("TRAINSCOPE_PROBE_PATH=") + path +
                                 " holds no trainscope_probe/__main__.py");
    }
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec).parent_path();
    std::string looked;
    for (const fs::path& dir : {exe / ".." / "share" / "trainscope" / "python",
                                exe / ".." / ".." / "share" / "trainscope" / "python"}) {
        if (holds(dir)) return fs::weakly_canonical(dir, ec);
        looked += (looked.empty() ? "" : ", ") + dir.lexically_normal().string();
    }
    throw std::runtime_error("Trainscope's Python probe is missing (looked in " + looked +
                             "): reinstall Trainscope or set TRAINSCOPE_PROBE_PATH");
}

namespace {

json probeConfig(const ScriptRunOptions& o, const std::string& socket_address,
                 const fs::path& trace_dir) {
    const ProfileConfig& p = o.profile;
    return {{"v", 1},
            {"socket", socket_address},
            {"trace_dir", trace_dir.string()},
            {"profile",
             {{"enabled", p.enabled},
              {"skip_first", p.skip_first},
              {"wait", p.wait},
              {"warmup", p.warmup},
              {"active", p.active},
              {"repeat", p.repeat},
              {"record_shapes", p.record_shapes},
              {"profile_memory", p.profile_memory},
              {"with_stack", o.with_stack}}},
            {"memory_every", o.memory_every},
            {"catch_slow", o.catch_slow}};
}

} // namespace

ProcessSpec scriptProcess(const ScriptRunOptions& o, const std::string& socket_address,
                          const fs::path& trace_dir) {
    ProcessSpec spec;
    spec.cwd = o.cwd;
    spec.argv = {o.python};
    if (o.nproc_per_node > 1)
        spec.argv.insert(spec.argv.end(), {"-m", "torch.distributed.run", "--standalone",
                                           "--nproc-per-node", std::to_string(o.nproc_per_node)});
    spec.argv.insert(spec.argv.end(), {"-m", "trainscope_probe"});
    if (!o.module.empty())
        spec.argv.insert(spec.argv.end(), {"-m", o.module});
    else
        spec.argv.push_back(o.script);
    spec.argv.insert(spec.argv.end(), o.args.begin(), o.args.end());

    spec.env = currentEnvironment();
    for (const auto& e : o.env)
        setVariable(spec.env, e.substr(0, e.find('=')), e.substr(e.find('=') + 1));
    const std::string path = variable(spec.env, "PYTHONPATH");
    setVariable(spec.env, "PYTHONPATH", probeFolder().string() + (path.empty() ? "" : ":" + path));
    setVariable(spec.env, "TRAINSCOPE_PROBE", probeConfig(o, socket_address, trace_dir).dump());
    // The script's output reaches the console as it prints it.
    setVariable(spec.env, "PYTHONUNBUFFERED", "1");
    return spec;
}

} // namespace ts::scriptrun
