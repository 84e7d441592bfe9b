#pragma once
// The real PointRunner: runs ts::Trainer with a RunRecorder into the point's
// directory, in this process, and turns allocation failures into OutOfMemory.
#include <atomic>
#include <cstdint>
#include <mutex>

#include "experiments/PointRunner.h"
#include "records/TrainerObserver.h"

namespace ts {

class Trainer;

class TrainerPointRunner : public PointRunner {
public:
    // `extra` (optional) also observes every run, e.g. a progress printer.
    explicit TrainerPointRunner(TrainerObserver* extra = nullptr);
    PointResult run(const ExperimentConfig& config, const std::filesystem::path& run_dir) override;
    int64_t availableMemoryBytes(const ExperimentConfig& config) override;
    bool cancelled() const override { return cancelled_; }
    DeviceSupportCheck deviceSupport() const override; // LibTorch's (env/Devices.h)
    // Thread-safe: stops the running point within one step and every later one.
    void requestCancel();

private:
    TrainerObserver* extra_;
    int default_threads_;    // restored before each point: threads=N is process-wide
    int64_t idle_rss_bytes_; // resident set before any point ran
    std::atomic<bool> cancelled_{false};
    std::mutex running_mutex_;
    Trainer* running_ = nullptr; // the point's trainer while it runs
};

} // namespace ts
