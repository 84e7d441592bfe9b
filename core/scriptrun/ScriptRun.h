#pragma once
// A run of the user's own script: started under the probe, its lines turned
// into the Trainer's observer calls, recorded as a run directory like any
// other (run.json with its source, steps.csv, the traces, stdout.log and
// stderr.log), and ended as the script ended. GUI and CLI both run it here.
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "records/TrainerObserver.h"
#include "scriptrun/ScriptLaunch.h"
#include "util/Cancel.h"

namespace ts::scriptrun {

inline constexpr const char* kStdoutLog = "stdout.log";
inline constexpr const char* kStderrLog = "stderr.log";
// Where the probes' torch.profiler cycles are saved: one file per rank and
// cycle, a rank folder when the script runs several ranks.
inline constexpr const char* kTraceFolder = "traces";

// Requests made while the script runs (another thread: the GUI's buttons),
// handed to every probe at its next step.
class ScriptControl {
public:
    void traceNextSteps(int steps);
    void memorySnapshot();
    std::vector<std::string> take(); // the control lines not yet sent

private:
    std::mutex mutex_;
    std::vector<std::string> lines_;
};

enum class ConsoleStream { Stdout, Stderr };

struct ScriptRunHooks {
    TrainerObserver* observer = nullptr; // rank 0's records as they come (GUI, CLI)
    // The script's output as it comes, in pieces (also kept in stdout.log and stderr.log).
    std::function<void(ConsoleStream, std::string_view)> console;
    // Each rank's steps of a job of several ranks (the Live view's per-rank chart).
    std::function<void(int rank, const StepRecord&)> rank_step;
    const CancelFlag* stop = nullptr;
    ScriptControl* control = nullptr;
};

struct ScriptRunResult {
    std::filesystem::path run_dir;
    RunStatus status = RunStatus::Failed;
    int exit_code = 0; // the script's
    int64_t steps = 0; // rank 0's
    std::string error;
};

// Runs the script to its end (or a stop: SIGINT to the script's group, then
// SIGKILL after options.stop_grace_s). Throws std::invalid_argument for bad
// options, InterpreterError for an interpreter that is missing or has no
// torch, and std::runtime_error when it cannot start otherwise (no probe, a
// run directory that cannot be made): nothing is recorded then. Once started, every outcome is a
// recorded run.
ScriptRunResult runScript(const ScriptRunOptions& options, const ScriptRunHooks& hooks);

} // namespace ts::scriptrun
