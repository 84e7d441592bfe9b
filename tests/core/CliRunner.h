#pragma once
// Runs the built trainscope-cli as a user would, from a shell, and returns
// its exit code and combined stdout + stderr.
#include <array>
#include <cstdio>
#include <string>

#include "TestPaths.h"
#include <sys/wait.h>

namespace ts::test {

struct CliResult {
    int code = -1;      // exit status; -1 when killed by a signal
    std::string output; // stdout + stderr
};

// Runs a shell command line (sh -c), e.g. to drive the CLI in the background.
inline CliResult runShell(const std::string& command_line) {
    const std::string command = command_line + " 2>&1";
    CliResult r;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buffer{};
    while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe))
        r.output.append(buffer.data(), n);
    const int status = pclose(pipe);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

inline CliResult runCli(const std::string& args) {
    return runShell(std::string(TRAINSCOPE_CLI_PATH) + " " + args);
}

// Runs the CLI from the folder `cwd` (so relative paths in its output stay
// the same on every machine) and returns its stdout only: progress and
// warnings on stderr are dropped, as when a user pipes `--json` into a tool.
inline CliResult runCliStdoutIn(const std::string& cwd, const std::string& args) {
    return runShell("(cd '" + cwd + "' && " + std::string(TRAINSCOPE_CLI_PATH) + " " + args +
                    " 2>/dev/null)");
}

// Starts the CLI with `args` in the background, waits until `file` has at
// least `lines` lines (a run's steps.csv: header + steps), sends SIGTERM
// (handled like Ctrl-C; a background job of sh has SIGINT ignored), and returns the CLI's exit
// status and output. Gives up (and kills it) after 300 s.
inline CliResult interruptCliWhen(const std::string& args, const std::string& file, int lines) {
    // Run by sh -c '...': the script itself uses only double quotes.
    const std::string script =
        std::string(TRAINSCOPE_CLI_PATH) + " " + args +
        R"sh( & pid=$!; n=0;
while [ "$(cat ")sh" +
        file + R"sh(" 2>/dev/null | wc -l)" -lt )sh" + std::to_string(lines) +
        R"sh( ] && [ $n -lt 1500 ] && [ -e /proc/$pid ] && ! grep -q zombie /proc/$pid/status; do
  sleep 0.2; n=$((n+1));
done
kill -TERM $pid; (sleep 300; kill -9 $pid) >/dev/null 2>&1 & watchdog=$!
wait $pid; rc=$?; kill $watchdog 2>/dev/null; exit $rc)sh";
    return runShell("sh -c '" + script + "'");
}

} // namespace ts::test
