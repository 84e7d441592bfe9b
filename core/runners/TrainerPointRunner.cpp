#include "runners/TrainerPointRunner.h"

#include <algorithm>

#include <torch/torch.h>

#include "engine/Trainer.h"
#include "env/Devices.h"
#include "env/TorchCompat.h"
#include "experiments/HostMemory.h"
#include "report/RunDirectory.h"
#include "util/ErrorText.h"
#include "util/ProcessMemory.h"

namespace ts {
namespace {

bool onCuda(const ExperimentConfig& c) {
    return c.device.rfind("cuda", 0) == 0;
}

int cudaIndex(const ExperimentConfig& c) {
    const auto colon = c.device.find(':');
    return colon == std::string::npos ? 0 : std::stoi(c.device.substr(colon + 1));
}

// Makes `trainer` the one requestCancel() reaches, for this object's lifetime
// (also when the run throws).
class RunningTrainer {
public:
    RunningTrainer(std::mutex& mutex, Trainer*& slot, Trainer& trainer)
        : mutex_(mutex), slot_(slot) {
        std::lock_guard<std::mutex> lock(mutex_);
        slot_ = &trainer;
    }
    ~RunningTrainer() {
        std::lock_guard<std::mutex> lock(mutex_);
        slot_ = nullptr;
    }
    RunningTrainer(const RunningTrainer&) = delete;
    RunningTrainer& operator=(const RunningTrainer&) = delete;

private:
    std::mutex& mutex_;
    Trainer*& slot_;
};

} // namespace

TrainerPointRunner::TrainerPointRunner(TrainerObserver* extra)
    : extra_(extra), default_threads_(at::get_num_threads()), idle_rss_bytes_(currentRssBytes()) {}

int64_t TrainerPointRunner::availableMemoryBytes(const ExperimentConfig& config) {
    if (onCuda(config)) {
        compat::cudaEmptyCache();
        return compat::cudaMemory(cudaIndex(config)).free;
    }
    // Memory this process already holds above idle (freed tensors kept by
    // the allocator) can be reused by the next point as well.
    return availableHostMemoryBytes() + std::max<int64_t>(0, currentRssBytes() - idle_rss_bytes_);
}

void TrainerPointRunner::requestCancel() {
    cancelled_ = true;
    std::lock_guard<std::mutex> lock(running_mutex_);
    if (running_) running_->requestCancel();
}

PointResult TrainerPointRunner::run(const ExperimentConfig& config,
                                    const std::filesystem::path& run_dir) {
    if (cancelled_) {
        PointResult skipped;
        skipped.outcome = PointOutcome::Skipped;
        skipped.message = kNotRunCancelled;
        skipped.run_dir = run_dir;
        return skipped;
    }
    at::set_num_threads(default_threads_);
    const bool cuda = onCuda(config);
    if (cuda) compat::cudaEmptyCache();
    const bool rss_reset = !cuda && resetPeakRss();
    PointResult result;
    result.run_dir = run_dir;
    try {
        RunRecorder recorder(run_dir);
        ObserverList observers;
        observers.add(&recorder);
        if (extra_) observers.add(extra_);
        Trainer trainer(config, observers);
        const RunningTrainer registration(running_mutex_, running_, trainer);
        // A cancel that came before the registration reaches the trainer here.
        if (cancelled_) trainer.requestCancel();
        result.summary = trainer.run();
        result.outcome = result.summary.status == RunStatus::Completed ? PointOutcome::Completed
                                                                       : PointOutcome::Failed;
        result.message =
            result.summary.status == RunStatus::Cancelled
                ? "cancelled after " + std::to_string(result.summary.steps_completed) + " steps"
                : result.summary.error;
    } catch (const std::exception& e) {
        // Setup failures (bad data, a model that does not fit on the device).
        result.outcome = PointOutcome::Failed;
        result.message = withoutTorchFrames(e.what());
    }
    if (result.outcome == PointOutcome::Failed && isOutOfMemoryMessage(result.message))
        result.outcome = PointOutcome::OutOfMemory;
    if (cuda) {
        result.memory_bytes = result.summary.peak_device_bytes;
        compat::cudaEmptyCache();
    } else {
        // Without a peak reset VmHWM is the lifetime peak: the need is then
        // overestimated, which only makes the guard more careful.
        const int64_t peak = std::max(result.summary.peak_rss_bytes, peakRssBytes());
        result.memory_bytes = std::max<int64_t>(0, peak - idle_rss_bytes_);
        if (!rss_reset && result.outcome == PointOutcome::Completed)
            result.message = "peak RSS could not be reset; memory is the process's lifetime peak";
    }
    at::set_num_threads(default_threads_);
    return result;
}

DeviceSupportCheck TrainerPointRunner::deviceSupport() const {
    return precisionSupportProblem;
}

} // namespace ts
