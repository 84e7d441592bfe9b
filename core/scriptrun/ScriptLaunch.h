#pragma once
// How a user's script is started under the probe: the options a form or the
// CLI gives, where the probe lives, whether an interpreter has torch, and the
// command line and environment (docs/script-probe.md).
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/ExperimentConfig.h"
#include "scriptrun/ChildProcess.h"

namespace ts::scriptrun {

struct ScriptRunOptions {
    std::string python = "python3"; // looked up on PATH without a '/'
    std::string script;             // the script, or
    std::string module;             // python -m MODULE
    std::vector<std::string> args;  // the script's own arguments
    std::string cwd;                // empty: Trainscope's
    std::vector<std::string> env;   // extra NAME=VALUE for the script
    std::filesystem::path out_dir;  // the run directory; empty: a new one under runs_root
    std::filesystem::path runs_root = "runs";
    // The torch.profiler schedule (enabled, skip_first, wait, warmup, active,
    // repeat, record_shapes, profile_memory) and the probe's own settings.
    ProfileConfig profile = scriptProfileDefaults();
    bool with_stack = false;
    int memory_every = 50; // steps between memory-by-category lines, 0: never
    bool catch_slow = false;
    int nproc_per_node = 1; // > 1: torchrun starts that many ranks
    double stop_grace_s = 10;

    // Profiling on, past the first steps (compilation, allocator warm-up,
    // cuDNN's search), one cycle of 3 active steps.
    static ProfileConfig scriptProfileDefaults();
    // The run's label: the script's name without .py, or the module.
    std::string label() const;
};

// Problems with the options alone (no such script, no such folder, both or
// neither of script and module, a bad rank count), each keyed by its option
// (script, module, cwd, nproc_per_node, memory_every, env) with a sentence
// naming the value. Empty: fine.
std::vector<ConfigIssue> checkScriptOptions(const ScriptRunOptions& options);

// What an interpreter is: its versions, or why it cannot run a script.
struct InterpreterInfo {
    std::string python;
    std::string python_version;
    std::string torch_version; // empty: no torch
    std::string error;         // a sentence naming the interpreter and what to do
    bool usable() const { return error.empty(); }
};
// An interpreter that is missing or has no torch (runScript refuses it).
class InterpreterError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Starts `python` once to ask for its versions (a few seconds: it imports torch).
InterpreterInfo checkInterpreter(const std::string& python, double timeout_s = 90);

// The folder holding trainscope_probe/: $TRAINSCOPE_PROBE_PATH, else
// share/trainscope/python beside the program (installed or in the build
// tree). Throws std::runtime_error saying where it looked.
std::filesystem::path probeFolder();

// The process to start: the interpreter running the probe (or torchrun
// running it per rank), with the probe's configuration and folder in the
// environment beside the user's. Not KINETO_USE_DAEMON: the probe traces on
// request itself, and without a daemon libkineto logs a failed send every
// few seconds into the script's output (--env KINETO_USE_DAEMON=1 lets
// `trace-job` reach it too).
ProcessSpec scriptProcess(const ScriptRunOptions& options, const std::string& socket_address,
                          const std::filesystem::path& trace_dir);

} // namespace ts::scriptrun
