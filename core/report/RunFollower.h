#pragma once
// Follows a run directory that another process is writing: a data-parallel
// job that the GUI started as trainscope-cli (its ranks are processes, so
// their records reach the GUI through the files every rank already writes).
// Each poll() returns what appeared since the previous one. No torch, no Qt.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "records/Records.h"
#include "report/StepsCsv.h"

namespace ts {

struct RunProgressFromFiles {
    std::optional<RunInfo> started;                     // once, when run.json first appears
    std::vector<StepRecord> steps;                      // the job's (global rate)
    std::vector<EpochRecord> epochs;                    // completed epochs
    std::vector<std::pair<int, StepRecord>> rank_steps; // (rank, its own step)
    std::optional<RunSummary> finished;                 // once run.json no longer says running
    std::vector<std::string> warnings;                  // malformed rows skipped, each named
    bool empty() const {
        return !started && steps.empty() && epochs.empty() && rank_steps.empty() && !finished &&
               warnings.empty();
    }
};

// The steps each rank of a finished data-parallel job recorded
// (<dir>/ranks/<r>/steps.csv), by rank; empty for a single process. A rank's
// unreadable steps.csv is left out.
std::map<int, std::vector<StepRecord>> loadRankSteps(const std::filesystem::path& dir);

class RunFollower {
public:
    // `not_before_ns` (fileWriteTimeNs of a file written as the job started):
    // files last written before it are left from an earlier process (a job
    // resumed in its folder finds the interrupted run's run.json, steps.csv
    // and rank folders) and are not reported until the job rewrites them.
    explicit RunFollower(std::filesystem::path dir, int64_t not_before_ns = 0);
    // Never throws for files being written; a malformed complete file (not a
    // Trainscope run) throws RunFormatError naming it.
    RunProgressFromFiles poll();

private:
    void pollRunJson(RunProgressFromFiles& out);
    void pollRanks(RunProgressFromFiles& out);
    void readSteps(RunProgressFromFiles& out);

    std::filesystem::path dir_;
    int64_t not_before_ns_;
    StepsCsvTail steps_;
    std::map<int, StepsCsvTail> ranks_;
    FileStamp run_json_stamp_; // of the run.json read last
    bool started_ = false;
    bool finished_ = false;
    size_t epochs_seen_ = 0;
};

} // namespace ts
