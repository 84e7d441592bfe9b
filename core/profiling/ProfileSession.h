#pragma once
// Drives the profiler from the training loop: decides per step whether it is
// recorded (torch.profiler-like schedule) and hands a ProfileCapture to the
// observer when a window ends. The window is recorded through LibTorch's
// Kineto where it has it (profile.recorder "auto" or "kineto": the trace is
// the one torch.profiler writes, GPU kernels included), else by Trainscope's
// own collector: operator events through at::RecordFunction global callbacks
// and memory events through MemoryTracker.
#include <cstdint>
#include <memory>
#include <string>

#include "config/ExperimentConfig.h"
#include "profiling/KinetoRecorder.h"
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
    // `found_batch` false: the attempt found no data (the epoch ended) and the
    // same global step begins again; Kineto's ProfilerStep#N then stays open
    // into it, as torch.profiler's does across a new epoch's iterator.
    void stepEnd(int64_t global_step, TrainerObserver& observer, bool found_batch = true);
    // Flushes a window cut short by the end or cancellation of the run.
    void finish(TrainerObserver& observer);
    bool recording() const; // inside an active step
    // When this process is one rank of a data-parallel job: Kineto's
    // "distributedInfo" JSON (backend, rank, world_size), stamped on every
    // captured trace so that the ranks' traces say which rank they are.
    void setDistributedInfo(std::string json);
    // Whether windows are recorded through Kineto.
    bool usesKineto() const;

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
        KinetoRange kineto_;
    };

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace ts
