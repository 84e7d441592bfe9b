#include <atomic>
#include <mutex>

#include <unistd.h>

#include "commands/Commands.h"
#include "commands/ProgressPrinter.h"
#include "config/ConfigError.h"
#include "data/Dataset.h"
#include "engine/Trainer.h"
#include "models/Model.h"
#include "report/RunDirectory.h"

namespace ts {
namespace {

std::mutex g_running_mutex;
Trainer* g_running = nullptr;

// Registers the trainer for cancelRunningExperiment() while it runs.
class RunningRegistration {
public:
    explicit RunningRegistration(Trainer& trainer) {
        std::lock_guard<std::mutex> lock(g_running_mutex);
        g_running = &trainer;
    }
    ~RunningRegistration() {
        std::lock_guard<std::mutex> lock(g_running_mutex);
        g_running = nullptr;
    }
};

} // namespace

void cancelRunningExperiment() {
    // Called from a signal-watching thread, never from the signal handler itself.
    std::lock_guard<std::mutex> lock(g_running_mutex);
    if (g_running) g_running->requestCancel();
}

int runExperimentCommand(const RunOptions& options, std::ostream& out, std::ostream& err) {
    ExperimentConfig config;
    try {
        config = resolveConfig(options.source);
    } catch (const ConfigError& e) {
        err << "error: " << e.what() << "\n";
        return exit_code::kBadInput;
    }
    const auto dir = options.out_dir.empty() ? makeRunDirectory(options.runs_root, config.name)
                                             : std::filesystem::path(options.out_dir);
    try {
        RunRecorder recorder(dir);
        ProgressPrinter progress(err, options.progress && ::isatty(STDERR_FILENO));
        ObserverList observers;
        observers.add(&recorder);
        if (!options.json || options.progress) observers.add(&progress);
        Trainer trainer(config, observers);
        trainer.setCheckpointDir(dir.string());
        RunningRegistration registration(trainer);
        const RunSummary summary = trainer.run();
        if (options.json) {
            nlohmann::json j = toJson(summary);
            j["run_dir"] = dir.string();
            out << j.dump(2) << "\n";
        } else {
            out << "run saved to " << dir.string() << "\n";
        }
        return summary.status == RunStatus::Failed ? exit_code::kFailure : exit_code::kOk;
    } catch (const ConfigError& e) {
        err << "error: " << e.what() << "\n";
    } catch (const DataError& e) {
        err << "error: " << e.what() << "\n";
    } catch (const ModelError& e) {
        err << "error: " << e.what() << "\n";
    } catch (const RunFormatError& e) {
        err << "error: " << e.what() << "\n";
    }
    return exit_code::kBadInput;
}

} // namespace ts
