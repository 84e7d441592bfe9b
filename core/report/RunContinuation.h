#pragma once
// A run resumed into its own directory continues the records there: the
// epochs, steps and profile windows up to the checkpoint it resumed from are
// kept, what the interrupted process measured after that checkpoint is
// dropped, and the summary at the end covers the whole run, so a run killed
// and resumed ends with records shaped like an uninterrupted run's.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/Records.h"
#include "records/SummaryBuilder.h"

namespace ts {

// Whether a run with this config writing into `dir` resumes the run recorded
// there: `resume` names `dir` (or a checkpoint file in it), or, for one rank's
// folder `<job>/ranks/<r>`, names `<job>`.
bool resumesInto(const ExperimentConfig& config, const std::filesystem::path& dir);

class RunContinuation {
public:
    // Reads the earlier records in `dir` for a run starting with `info`;
    // nullopt when the run does not resume into `dir` or `dir` holds no
    // run.json. Throws RunFormatError when the earlier records cannot be read.
    static std::optional<RunContinuation> open(const std::filesystem::path& dir,
                                               const RunInfo& info);

    // steps.csv rewritten (atomically) to the rows kept, and the files of the
    // dropped profile windows removed.
    void rewriteFiles(const std::filesystem::path& dir) const;

    // The run's info as recorded: the new one, starting where the earlier did.
    RunInfo info(const RunInfo& resumed) const;
    // A step of the resumed process on the run's clock.
    StepRecord step(StepRecord step) const;
    // An epoch of the resumed process; the one it resumed in the middle of
    // also counts the steps the earlier process trained of it.
    EpochRecord epoch(EpochRecord epoch) const;
    // A profile window's index after the windows kept.
    int windowOffset() const { return kept_windows_; }
    void addStep(const StepRecord& step) { summary_.addStep(step); }
    void addEpoch(const EpochRecord& epoch) { summary_.addEpoch(epoch); }
    // The summary over the kept and the new records; the resumed process's
    // `summary` gives status, error, the ranks and its own time.
    RunSummary summary(const RunSummary& resumed) const;

    const std::vector<EpochRecord>& epochs() const { return epochs_; }
    const nlohmann::json& profile() const { return profile_; }
    const std::vector<std::string>& messages() const { return messages_; }
    // Every resumption so far (run.json's "resumed"), this one last.
    const nlohmann::json& resumptions() const { return resumptions_; }

private:
    RunContinuation(std::filesystem::path dir, int warmup)
        : dir_(std::move(dir)), summary_(warmup) {}
    void continueRankFigures(RunSummary& s) const;

    std::filesystem::path dir_;
    RunInfo earlier_info_;
    std::vector<StepRecord> kept_steps_;
    std::vector<EpochRecord> epochs_;
    std::vector<std::string> dropped_files_; // of the profile windows dropped
    nlohmann::json profile_ = nlohmann::json::array();
    std::vector<std::string> messages_;
    nlohmann::json resumptions_ = nlohmann::json::array();
    int kept_windows_ = 0;
    int resumed_epoch_ = 0;     // the epoch the checkpoint lies in (mid-epoch: partly trained)
    double earlier_time_s_ = 0; // the earlier processes' time, the new steps' clock offset
    SummaryBuilder summary_;
};

} // namespace ts
