#include "commands/JobPointRunner.h"

#include <sstream>

#include "commands/DistributedRun.h"
#include "config/ConfigJson.h"
#include "report/RunDirectory.h"

namespace ts {

PointResult JobPointRunner::runJob(const ExperimentConfig& config,
                                   const std::filesystem::path& run_dir, int processes) {
    if (processes == 1 || cancelled()) return run(config, run_dir);
    PointResult result;
    result.run_dir = run_dir;
    // The ranks read the point's config from a file: the launcher passes them
    // a config source, never an in-memory config.
    std::filesystem::create_directories(run_dir);
    const auto config_file = run_dir / run_files::kLaunchConfig;
    saveConfigFile(config, config_file);
    RunOptions job;
    job.source.config_file = config_file.string();
    job.launch.nproc_per_node = processes;
    job.out_dir = run_dir.string();
    job.progress = false;
    job.json = true;                 // quiet ranks: no progress lines of every point's job
    std::ostringstream summary_json; // the sweep prints its own line per point
    const int code = launchRanks(job, summary_json, err_);
    std::error_code missing;
    // Rank 0 saves the job's weights (final.pt; best.pt with --validate); a
    // sweep's measuring runs keep none (its single-process points write none).
    for (const char* weights : {"final.pt", "best.pt"})
        std::filesystem::remove(run_dir / weights, missing);
    if (!std::filesystem::is_regular_file(run_dir / run_files::kRunJson, missing)) {
        result.message = "the job of " + std::to_string(processes) +
                         " processes wrote no run.json (exit code " + std::to_string(code) + ")";
        return result;
    }
    try {
        result.summary = loadRun(run_dir, false).summary;
    } catch (const std::exception& e) {
        result.message = e.what();
        return result;
    }
    const RunStatus status = result.summary.status;
    result.outcome = code == 0 && status == RunStatus::Completed ? PointOutcome::Completed
                                                                 : PointOutcome::Failed;
    if (status == RunStatus::Cancelled)
        result.message =
            "cancelled after " + std::to_string(result.summary.steps_completed) + " steps";
    else if (result.outcome == PointOutcome::Failed)
        result.message = !result.summary.error.empty()
                             ? result.summary.error
                             : "the job exited with code " + std::to_string(code);
    if (result.outcome == PointOutcome::Failed && isOutOfMemoryMessage(result.message))
        result.outcome = PointOutcome::OutOfMemory;
    return result;
}

} // namespace ts
