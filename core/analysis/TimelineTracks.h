#pragma once
// What the timeline draws beside the events: per GPU a utilization row (the
// share of time a kernel runs, as the TensorBoard plugin's "GPU Utilization"
// counter), per device a memory row (allocated and reserved), the steps'
// spans on the host and on the device (a step's device work runs after the
// CPU launched it), and the launch links. Derived once when a trace opens.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/CounterSeries.h"
#include "analysis/LaunchIndex.h"
#include "trace/Trace.h"

namespace ts {

struct GpuBusyRow {
    int32_t gpu = 0;
    BusyTrack busy; // kernels (communication kernels included), merged
};

struct MemoryRow {
    std::string label;       // "GPU 0 memory", "CPU memory"
    CounterSeries allocated; // bytes in use
    CounterSeries reserved;  // bytes held by the caching allocator; empty if unrecorded
    // The trace has no totals (older Kineto): `allocated` sums the events'
    // bytes, the change since the trace began, not what was in use.
    bool from_deltas = false;
};

struct StepSpan {
    int64_t step = 0;
    int64_t host_start = 0, host_end = 0;
    // The device work launched during the step; device_end < device_start when none.
    int64_t device_start = 0, device_end = -1;
    bool hasDevice() const { return device_end >= device_start; }
};

struct TimelineTracks {
    std::vector<GpuBusyRow> gpus;
    std::vector<MemoryRow> memory;
    std::vector<StepSpan> steps;
    LaunchIndex launches;

    size_t counterRows() const { return gpus.size() + memory.size(); }
};

// `events` and `links` of the trace when already made (GpuTraceAnalysis
// has them); made here otherwise.
TimelineTracks buildTimelineTracks(const Trace& trace, const KinetoEvents* events = nullptr,
                                   const LaunchLinks* links = nullptr);

// The same in two halves, for a caller that makes the first beside the GPU
// analysis: the counter rows (GPU busy, memory), which need no analysis, and
// then the launches and step spans, which use its `events` and `links`.
TimelineTracks buildTimelineCounters(const Trace& trace);
void addTimelineLaunches(TimelineTracks& tracks, const Trace& trace,
                         const KinetoEvents* events = nullptr, const LaunchLinks* links = nullptr);

} // namespace ts
