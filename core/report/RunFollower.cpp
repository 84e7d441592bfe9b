#include "report/RunFollower.h"

#include <cstdlib>

#include "report/RunDirectory.h"

namespace ts {

namespace fs = std::filesystem;

RunFollower::RunFollower(fs::path dir, int64_t not_before_ns)
    : dir_(std::move(dir)), not_before_ns_(not_before_ns),
      steps_(dir_ / run_files::kStepsCsv, not_before_ns) {}

RunProgressFromFiles RunFollower::poll() {
    RunProgressFromFiles out;
    readSteps(out);
    pollRanks(out);
    pollRunJson(out);
    return out;
}

void RunFollower::readSteps(RunProgressFromFiles& out) {
    const auto steps = steps_.readNew();
    out.steps.insert(out.steps.end(), steps.begin(), steps.end());
    for (auto& error : steps_.takeErrors())
        out.warnings.push_back(std::move(error));
}

namespace {

// ranks/<r>/ directories of a job, by rank.
std::map<int, fs::path> rankDirs(const fs::path& dir) {
    std::map<int, fs::path> ranks;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(dir / "ranks", error)) {
        const std::string name = entry.path().filename().string();
        char* end = nullptr;
        const long rank = std::strtol(name.c_str(), &end, 10);
        if (name.empty() || *end != '\0' || rank < 0 || rank > 1000000) continue;
        ranks.emplace(int(rank), entry.path());
    }
    return ranks;
}

} // namespace

std::map<int, std::vector<StepRecord>> loadRankSteps(const fs::path& dir) {
    std::map<int, std::vector<StepRecord>> steps;
    for (const auto& [rank, rank_dir] : rankDirs(dir)) {
        try {
            steps[rank] = readStepsCsv(rank_dir / run_files::kStepsCsv);
        } catch (const RunFormatError&) {
            // A rank that never started its records: the others still show.
        }
    }
    return steps;
}

void RunFollower::pollRanks(RunProgressFromFiles& out) {
    for (const auto& [rank, rank_dir] : rankDirs(dir_))
        ranks_.try_emplace(rank, rank_dir / run_files::kStepsCsv, not_before_ns_);
    for (auto& [rank, tail] : ranks_) {
        for (const StepRecord& step : tail.readNew())
            out.rank_steps.emplace_back(rank, step);
        for (auto& error : tail.takeErrors())
            out.warnings.push_back(std::move(error));
    }
}

void RunFollower::pollRunJson(RunProgressFromFiles& out) {
    if (finished_) return;
    const fs::path file = dir_ / run_files::kRunJson;
    // The interrupted run's record, before the resumed job rewrites it: its
    // status (cancelled, or running if killed) is not this job's.
    const std::optional<FileStamp> stamp = fileStamp(file);
    if (!stamp || (not_before_ns_ > 0 && stamp->write_ns < not_before_ns_)) return;
    // Two writes within one tick of the file system's clock differ in size.
    if (started_ && *stamp == run_json_stamp_) return;
    // run.json is replaced atomically (written aside, then renamed): what is
    // read is always a whole file.
    RunRecord record;
    try {
        record = loadRun(dir_, false);
    } catch (const RunFormatError&) {
        if (!fs::exists(file)) return; // removed between the two calls
        throw;
    }
    run_json_stamp_ = *stamp;
    if (!started_) {
        out.started = record.info;
        started_ = true;
    }
    const bool new_epochs = record.epochs.size() > epochs_seen_;
    for (size_t i = epochs_seen_; i < record.epochs.size(); ++i)
        out.epochs.push_back(record.epochs[i]);
    epochs_seen_ = record.epochs.size();
    const bool finished = record.summary.status != RunStatus::Running;
    if (new_epochs || finished) {
        // An epoch's (and the run's) last steps are flushed before its
        // run.json is written, possibly after the steps were read above.
        readSteps(out);
        pollRanks(out);
    }
    if (finished) {
        out.finished = record.summary;
        finished_ = true;
    }
}

} // namespace ts
