#pragma once
// Why the GPU waits: Holistic Trace Analysis' temporal breakdown (how much of
// the window from the first to the last device event a GPU was idle,
// computing, or busy with anything else) and idle-time breakdown (each gap
// between consecutive device work on a stream, by cause). The definitions
// follow HTA's (docs/gpu-traces.md "Idle time", and where Trainscope differs).
#include <array>
#include <cstdint>
#include <vector>

#include "analysis/DeviceActivity.h"
#include "util/Statistics.h"

namespace ts {

struct TemporalBreakdown {
    int64_t rank = 0;
    int64_t window_ns = 0;      // first device event's start to the last's end (HTA's kernel_time)
    int64_t idle_ns = 0;        // no stream busy
    int64_t compute_ns = 0;     // some computation kernel running
    int64_t non_compute_ns = 0; // busy, but with no computation kernel
    double share(int64_t ns) const { return window_ns > 0 ? double(ns) / double(window_ns) : 0; }
};

// HTA's union rule: busy time on any stream counts once; computation that
// overlaps communication or copies counts as computation.
TemporalBreakdown temporalBreakdown(const DeviceActivities& activity);

// Why a stream idled before a kernel.
enum class IdleCause : uint8_t {
    HostWait,   // its launch began after the previous work on the stream had ended
    KernelWait, // launched in time, and the gap is below the threshold
    Other,      // launched in time, yet a longer gap (synchronisation, dependencies)
};
inline constexpr size_t kIdleCauseCount = 3;
const char* toString(IdleCause cause); // "host_wait", "kernel_wait", "other"

// The distribution of a cause's gaps on a stream, ns (pandas' describe():
// sample standard deviation, percentiles interpolated linearly).
using IntervalStats = Description;

struct StreamIdle {
    int32_t lane = -1;
    int32_t gpu = -1;
    int64_t stream = -1;
    std::array<int64_t, kIdleCauseCount> idle_ns{};
    std::array<IntervalStats, kIdleCauseCount> intervals{};
    int64_t totalNs() const { return idle_ns[0] + idle_ns[1] + idle_ns[2]; }
};

// One gap, for the timeline's shading and the details pane.
struct IdleGap {
    int32_t lane = -1;
    int32_t next = -1; // the event after the gap (Trace::events index)
    int64_t start = 0, end = 0;
    IdleCause cause = IdleCause::Other;
};

struct IdleOptions {
    int64_t kernel_wait_ns = 30000; // HTA's consecutive_kernel_delay (30 us)
};

struct IdleBreakdown {
    int64_t rank = 0;
    int64_t kernel_wait_ns = 0;      // the threshold used
    std::vector<StreamIdle> streams; // by lane
    std::vector<IdleGap> gaps;       // by (lane, start)
};

IdleBreakdown idleBreakdown(const Trace& trace, const DeviceActivities& activity,
                            const IdleOptions& options = {});

} // namespace ts
