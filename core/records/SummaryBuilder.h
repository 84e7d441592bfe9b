#pragma once
// Accumulates step and epoch records into the run summary (steady-state
// medians, peaks, final metrics). Torch-free so it is unit-testable.
#include <optional>
#include <vector>

#include "records/Records.h"

namespace ts {

class SummaryBuilder {
public:
    explicit SummaryBuilder(int warmup_steps_excluded) : warmup_(warmup_steps_excluded) {}
    void addStep(const StepRecord& step);
    void addEpoch(const EpochRecord& epoch);
    RunSummary build(RunStatus status, const std::string& error, double total_time_s) const;
    // This rank's medians over the same steady-state steps (data-parallel
    // runs); host and checksum are left for the caller. The overlap is the
    // share of allreduce time that was not waited for after backward.
    RankSummary rankFigures() const;
    int warmupStepsExcluded() const { return warmup_; }

private:
    int warmup_;
    std::vector<StepRecord> steady_; // steps past the warm-up of their epoch
    std::vector<StepRecord> all_;    // fallback when no steady steps
    std::vector<EpochRecord> epochs_;
    RunSummary peaks_;
};

// A data-parallel job's rate: the sum of its ranks' rates, when every rank
// reported (after a failure a rank may be gone); nullopt otherwise.
std::optional<double> jobImagesPerSec(const DistributedSummary& job);

} // namespace ts
