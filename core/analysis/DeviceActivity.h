#pragma once
// What the GPU did, as Holistic Trace Analysis' diagnoses read it: every
// kernel, memcpy, memset and stream synchronisation on a device lane, with
// its kernel type and the start of the runtime call that launched it. The
// input of the temporal and idle-time breakdowns (analysis/IdleTime.h).
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "trace/Trace.h"

namespace ts {

// HTA's kernel types, by name: NCCL (and HCCL) kernels communicate, copies
// and sets move memory, synchronisation and stream waits are other work,
// every other kernel computes.
enum class KernelType : uint8_t { Computation, Communication, Memory, Other };
const char* toString(KernelType type); // "computation", ...
KernelType kernelTypeOf(std::string_view name, KinetoCategory category);

struct DeviceActivity {
    int32_t event = -1;         // Trace::events index
    int32_t lane = -1;          // the stream's lane
    int64_t start = 0, end = 0; // ns
    int64_t launch = -1;        // start of the runtime call that launched it, ns; -1 none
    int64_t launch_end = -1;    // and its end
    int32_t launcher = -1;      // that call (Trace::events index), -1 none
    KernelType type = KernelType::Computation;
    // A kernel, memcpy or memset (not a synchronisation): what the
    // idle-time breakdown looks between.
    bool work = true;
};

struct ActivityOptions {
    // HTA's default: with two steps or more, keep only what was launched
    // before the last ProfilerStep began (the profiler often cuts that step
    // short) and drop device work whose launch is not in the trace.
    bool drop_last_step = true;
    // Round as HTA does for traces with sub-microsecond times: starts up and
    // ends down to whole microseconds (a sub-microsecond kernel gets a
    // negative or zero duration). For the conformance bench and tests only:
    // Trainscope's own figures keep the trace's nanoseconds.
    bool hta_rounding = false;
};

struct DeviceActivities {
    std::vector<DeviceActivity> events; // by (lane, start, end)
    int64_t rank = 0;                   // distributedInfo.rank, 0 when the trace has none
    bool last_step_dropped = false;
    int64_t cutoff = 0; // ns: launches from here on were dropped (last_step_dropped)
    size_t dropped = 0; // device events left out by the step rule
    bool empty() const { return events.empty(); }
};

// What a rank's device activity says of itself, without its events: what
// the notes on it need (report/IdleTables.h activityNotes), kept in a rank's
// summary (RankTraceSummary.h).
struct ActivityFacts {
    bool any = false;    // kernels, copies or sets on a GPU stream
    bool linked = false; // some of it linked to the runtime call that launched it
    bool last_step_dropped = false;
    uint64_t dropped = 0;
};
ActivityFacts activityFacts(const DeviceActivities& activity);

// [start, end) of an event in ns from the origin, rounded as HTA rounds
// (ActivityOptions::hta_rounding): for the other diagnoses' HTA modes.
std::pair<int64_t, int64_t> htaRounded(int64_t start, int64_t end, int64_t origin);

class LaunchIndex;

// `launches`: the trace's launch links when already made (from a
// GpuTraceAnalysis' events and links); made here otherwise.
DeviceActivities collectDeviceActivity(const Trace& trace, const ActivityOptions& options = {},
                                       const LaunchIndex* launches = nullptr);

} // namespace ts
