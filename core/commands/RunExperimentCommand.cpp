#include <unistd.h>

#include <cstdlib>

#include "commands/Cancellation.h"
#include "commands/Commands.h"
#include "commands/DistributedRun.h"
#include "commands/Guarded.h"
#include "commands/ProgressPrinter.h"
#include "engine/Trainer.h"
#include "report/RunDirectory.h"

namespace ts {

int runExperimentCommand(const RunOptions& options, std::ostream& out, std::ostream& err) {
    if (options.launch.launches()) return launchRanks(options, out, err);
    // Started by a launcher (ours, torchrun, a cluster's): one rank of a job.
    std::vector<ConfigIssue> issues;
    const auto launch = distributedLaunchFromEnvironment(::getenv, issues);
    if (!issues.empty()) {
        err << "error: " << ConfigError("the launcher's environment", issues).what() << "\n";
        return exit_code::kBadInput;
    }
    if (launch && launch->enabled()) return runAsRank(options, *launch, out, err);
    return runGuarded(err, [&] {
        const ExperimentConfig config = resolveConfig(options.source);
        std::error_code ignored;
        const bool out_existed =
            !options.out_dir.empty() && std::filesystem::exists(options.out_dir, ignored);
        const auto dir = options.out_dir.empty() ? runDirectoryFor(options.runs_root, config)
                                                 : std::filesystem::path(options.out_dir);
        // A run resumed in place writes into the directory it continues.
        const bool existed = out_existed || dir == std::filesystem::path(config.resume);
        const auto train = [&] {
            RunRecorder recorder(dir);
            ProgressPrinter progress(err, options.progress && ::isatty(STDERR_FILENO));
            ObserverList observers;
            observers.add(&recorder);
            if (!options.json || options.progress) observers.add(&progress);
            Trainer trainer(config, observers);
            trainer.setCheckpointDir(dir.string());
            CancelRegistration cancel([&trainer] { trainer.requestCancel(); });
            const RunSummary own = trainer.run();
            // A run resumed in place reports the whole run, as run.json does.
            return recorder.recordedSummary().value_or(own);
        };
        RunSummary summary;
        try {
            summary = train();
        } catch (...) {
            // Refused before it started (a bad checkpoint, data the config
            // does not fit): nothing of the run is left behind.
            discardUnstartedRun(dir, !existed);
            throw;
        }
        if (options.json) {
            nlohmann::json j = toJson(summary);
            j["run_dir"] = dir.string();
            out << j.dump(2) << "\n";
        } else {
            out << "run saved to " << dir.string() << "\n";
        }
        return summary.status == RunStatus::Failed ? exit_code::kFailure : exit_code::kOk;
    });
}

} // namespace ts
