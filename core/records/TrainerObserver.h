#pragma once
// The engine reports only through this interface (it never prints). Calls come
// from the training thread; implementations that feed a GUI must hand data over
// to their own thread (see widgets' LiveBuffer).
#include <string>

#include "records/Records.h"

namespace ts {

struct ProfileCapture; // trace/Trace.h

class TrainerObserver {
public:
    virtual ~TrainerObserver() = default;
    virtual void onRunStarted(const RunInfo&) {}
    virtual void onStep(const StepRecord&) {}
    virtual void onEpoch(const EpochRecord&) {}
    // One finished profiling window (torch.profiler's on_trace_ready).
    virtual void onProfile(const ProfileCapture&) {}
    virtual void onMessage(LogLevel, const std::string&) {}
    virtual void onRunFinished(const RunSummary&) {}
};

} // namespace ts
