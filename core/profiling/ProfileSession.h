#pragma once
// Drives Trainscope's profiler from the training loop: decides per step
// whether it is recorded (torch.profiler-like schedule), collects operator
// events through at::RecordFunction global callbacks and memory events through
// MemoryTracker, and hands a ProfileCapture to the observer when a window ends.
#include <cstdint>
#include <memory>
#include <string>

#include "config/ExperimentConfig.h"
#include "records/TrainerObserver.h"

namespace ts {

class MemoryTracker;

class ProfileSession {
public:
    ProfileSession(const ProfileConfig& config, bool cuda, std::shared_ptr<MemoryTracker> memory);
    ~ProfileSession();

    // Called at the start of every training step (before waiting for data).
    void stepBegin(int64_t global_step);
    // Called after every step. A finished window is emitted through
    // observer.onProfile at the stepEnd of the step after its last active step
    // (or by finish()): only when that next step begins is it certain that the
    // last one was not an aborted attempt (no batch) that is about to be
    // repeated with the same global step.
    void stepEnd(int64_t global_step, TrainerObserver& observer);
    // Flushes a window cut short by the end or cancellation of the run.
    void finish(TrainerObserver& observer);
    bool recording() const; // inside an active step
    // When this process is one rank of a data-parallel job: Kineto's
    // "distributedInfo" JSON (backend, rank, world_size), stamped on every
    // captured trace so that the ranks' traces say which rank they are.
    void setDistributedInfo(std::string json);

    // A named range on the trace (and an NVTX range on CUDA builds); no-op
    // cost when not recording. Phases: "data", "copy", "forward", "backward",
    // "optimizer".
    class Range {
    public:
        Range(ProfileSession* session, const char* name);
        ~Range();
        Range(const Range&) = delete;
        Range& operator=(const Range&) = delete;

    private:
        ProfileSession* session_;
        const char* name_;
        int64_t start_ns_ = 0;
        bool active_ = false;
    };

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace ts
