#include "analysis/QueueLength.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string_view>

namespace ts {
namespace {

struct Change {
    int64_t t;
    int32_t delta; // +1 launch, -1 start
};

StreamQueue streamQueue(const Trace& trace, std::vector<Change>& changes,
                        const QueueLengthOptions& options, int32_t lane) {
    StreamQueue s;
    s.lane = lane;
    s.gpu = trace.lanes[size_t(lane)].gpu;
    s.stream = trace.lanes[size_t(lane)].stream;
    // Launches first at equal times: a kernel cannot start before it is queued.
    std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        return a.t != b.t ? a.t < b.t : a.delta > b.delta;
    });
    int32_t length = 0;
    std::vector<int32_t> values;
    values.reserve(changes.size());
    for (const Change& c : changes) {
        length += c.delta;
        s.series.push_back({c.t, length});
        values.push_back(length);
    }
    s.stats = describe(std::move(values));
    double weighted = 0;
    for (size_t i = 0; i + 1 < s.series.size(); ++i) {
        const int64_t held = s.series[i + 1].t - s.series[i].t;
        weighted += double(s.series[i].length) * double(held);
        if (s.series[i].length >= options.max_queue_length) s.blocked_ns += held;
    }
    const int64_t window = s.series.back().t - s.series.front().t;
    s.time_mean = window > 0 ? weighted / double(window) : double(s.series.front().length);
    return s;
}

// The span HTA divides the blocked time by: the first to the last start of
// the events it keeps (the host's before the last step, the device work
// kept).
int64_t spanOf(const Trace& trace, const DeviceActivities& activity) {
    int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const EventCore& e = trace.events.core(i);
        // HTA drops the profiler's own range (category "Trace").
        if (trace.lanes[size_t(e.lane)].device ||
            trace.categoryOf(int32_t(i)) == KinetoCategory::Trace)
            continue;
        if (activity.last_step_dropped && e.start_ns >= activity.cutoff) continue;
        first = std::min(first, e.start_ns);
        last = std::max(last, e.start_ns);
    }
    for (const DeviceActivity& a : activity.events) {
        first = std::min(first, a.start);
        last = std::max(last, a.start);
    }
    return last > first ? last - first : 0;
}

} // namespace

bool isHtaQueuedLaunch(std::string_view name) {
    static constexpr std::array<std::string_view, 12> kCalls = {
        "cudaLaunchKernel",
        "cudaLaunchKernelExC",
        "cuLaunchKernel",
        "cuLaunchKernelEx",
        "cudaMemcpyAsync",
        "cudaMemsetAsync",
        "runFunction - job_prep_and_submit_for_execution",
        "hipLaunchKernel",
        "hipExtModuleLaunchKernel",
        "hipMemsetAsync",
        "hipMemcpyAsync",
        "hipMemcpyWithStream"};
    return std::find(kCalls.begin(), kCalls.end(), name) != kCalls.end();
}

QueueLength queueLength(const Trace& trace, const DeviceActivities& activity,
                        const QueueLengthOptions& options) {
    QueueLength out;
    out.rank = activity.rank;
    out.max_queue_length = options.max_queue_length;
    out.span_ns = spanOf(trace, activity);
    std::vector<Change> changes;
    int32_t lane = -1;
    const auto flush = [&] {
        if (!changes.empty()) out.streams.push_back(streamQueue(trace, changes, options, lane));
        changes.clear();
    };
    for (const DeviceActivity& a : activity.events) { // by lane
        if (!a.work || a.launch < 0) continue;
        if (options.hta_calls_only &&
            !isHtaQueuedLaunch(trace.nameOf(trace.events[size_t(a.launcher)])))
            continue;
        if (a.lane != lane) flush();
        lane = a.lane;
        changes.push_back({a.launch, +1});
        changes.push_back({a.start, -1});
    }
    flush();
    for (StreamQueue& s : out.streams)
        s.blocked_share = out.span_ns > 0 ? double(s.blocked_ns) / double(out.span_ns) : 0;
    return out;
}

} // namespace ts
