#pragma once
// Operator events through at::RecordFunction global callbacks, collected into
// per-thread buffers (intra-op and autograd threads call the callbacks too).
// The callbacks are process-wide, so only one collector can be attached at a
// time. Between steps the callbacks stay installed but keep nothing
// (setCollecting(false)); ProfileSession detaches them outside windows so
// unprofiled steps pay nothing.
#include <cstdint>
#include <memory>
#include <string>

#include "trace/Trace.h"

namespace ts {

class MemoryTracker;

struct CollectorOptions {
    bool record_shapes = true; // input dims, dtypes and non-tensor values
    bool memory = true;        // allocation/free events through the MemoryTracker
    bool cuda = false;         // device time per op through CUDA events
    int64_t max_events = 1000000;
};

class OpCollector {
public:
    OpCollector(CollectorOptions options, std::shared_ptr<MemoryTracker> memory);
    ~OpCollector();
    OpCollector(const OpCollector&) = delete;
    OpCollector& operator=(const OpCollector&) = delete;

    // Installs the callbacks (and the memory listener). Returns false, with
    // `why` set, when another collector is attached.
    bool attach(std::string* why = nullptr);
    void detach();
    bool attached() const { return handle_ != 0; }

    // Events are kept only while collecting; `step` is stamped on them.
    void setCollecting(bool on, int64_t step);
    // Names the calling thread's lane "(training)".
    void markMainThread();
    // Drops everything collected so far (warm-up steps).
    void clear();
    // An annotation (phase range) on the calling thread's lane.
    void addAnnotation(const char* name, int64_t start_ns, int64_t end_ns);

    // Moves what was collected into a trace, times relative to `origin_ns`
    // (collector clock). Not finalized; notes say what was dropped.
    Trace harvest(int64_t origin_ns);

    // Monotonic clock of all collector timestamps, in ns.
    static int64_t now();
    // Offset to add to collector time to get Unix time in ns.
    static int64_t unixOffsetNs();

private:
    Trace drain(int64_t origin_ns);

    CollectorOptions options_;
    std::shared_ptr<MemoryTracker> memory_;
    uint64_t handle_ = 0;
};

} // namespace ts
