#pragma once
// The PointRunner of `trainscope-cli sweep`: a point of one process trains in
// this process (TrainerPointRunner); a point of more processes runs as a
// data-parallel job of that many local ranks (launchRanks: processes of this
// program sharing the machine's cores) into the point's directory, and its
// result is the job's run.json.
#include <ostream>

#include "runners/TrainerPointRunner.h"

namespace ts {

class JobPointRunner : public PointRunner {
public:
    // `err` receives the job launcher's messages (a rank that failed, and why).
    JobPointRunner(TrainerPointRunner& single, std::ostream& err) : single_(single), err_(err) {}
    PointResult run(const ExperimentConfig& config, const std::filesystem::path& run_dir) override {
        return single_.run(config, run_dir);
    }
    PointResult runJob(const ExperimentConfig& config, const std::filesystem::path& run_dir,
                       int processes) override;
    int64_t availableMemoryBytes(const ExperimentConfig& config) override {
        return single_.availableMemoryBytes(config);
    }
    bool cancelled() const override { return single_.cancelled(); }
    DeviceSupportCheck deviceSupport() const override { return single_.deviceSupport(); }

private:
    TrainerPointRunner& single_;
    std::ostream& err_;
};

} // namespace ts
