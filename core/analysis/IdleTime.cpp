#include "analysis/IdleTime.h"

#include <algorithm>

#include "util/Statistics.h"

namespace ts {
namespace {

struct Interval {
    int64_t start, end;
};

// The length of the union of `intervals` (sorted here). Touching ones merge;
// an interval with a negative length (HTA's rounding) stays on its own and
// subtracts, as in HTA.
int64_t unionLength(std::vector<Interval> intervals) {
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    int64_t total = 0;
    for (size_t i = 0; i < intervals.size();) {
        int64_t start = intervals[i].start, end = intervals[i].end;
        for (++i; i < intervals.size() && intervals[i].start <= end; ++i)
            end = std::max(end, intervals[i].end);
        total += end - start;
    }
    return total;
}

IdleCause causeOf(const DeviceActivity& next, int64_t previous_end, int64_t gap,
                  const IdleOptions& options) {
    if (next.launch > previous_end) return IdleCause::HostWait;
    if (gap < options.kernel_wait_ns) return IdleCause::KernelWait;
    return IdleCause::Other;
}

// The gaps between one stream's work, `work` in order of start.
StreamIdle streamIdle(const Trace& trace, const std::vector<const DeviceActivity*>& work,
                      const IdleOptions& options, std::vector<IdleGap>& gaps) {
    StreamIdle s;
    s.lane = work.front()->lane;
    const TraceLane& lane = trace.lanes[size_t(s.lane)];
    s.gpu = lane.gpu;
    s.stream = lane.stream;
    std::array<std::vector<int64_t>, kIdleCauseCount> by_cause;
    int64_t previous_end = work.front()->end;
    for (size_t i = 1; i < work.size(); ++i) {
        const DeviceActivity& next = *work[i];
        // Work that overlaps earlier work on its stream (rounding) is no gap.
        const int64_t gap = std::max<int64_t>(0, next.start - previous_end);
        const IdleCause cause = causeOf(next, previous_end, gap, options);
        by_cause[size_t(cause)].push_back(gap);
        s.idle_ns[size_t(cause)] += gap;
        if (gap > 0) gaps.push_back({s.lane, next.event, previous_end, next.start, cause});
        previous_end = std::max(previous_end, next.end);
    }
    for (size_t c = 0; c < kIdleCauseCount; ++c)
        s.intervals[c] = describe(std::move(by_cause[c]));
    return s;
}

} // namespace

const char* toString(IdleCause cause) {
    switch (cause) {
    case IdleCause::HostWait:
        return "host_wait";
    case IdleCause::KernelWait:
        return "kernel_wait";
    case IdleCause::Other:
        return "other";
    }
    return "";
}

TemporalBreakdown temporalBreakdown(const DeviceActivities& activity) {
    TemporalBreakdown t;
    t.rank = activity.rank;
    if (activity.empty()) return t;
    std::vector<Interval> all, compute;
    int64_t first = activity.events.front().start, last = activity.events.front().end;
    for (const DeviceActivity& a : activity.events) {
        all.push_back({a.start, a.end});
        if (a.type == KernelType::Computation) compute.push_back({a.start, a.end});
        first = std::min(first, a.start);
        last = std::max(last, a.end);
    }
    const int64_t busy = unionLength(std::move(all));
    t.window_ns = last - first;
    t.idle_ns = t.window_ns - busy;
    t.compute_ns = unionLength(std::move(compute));
    t.non_compute_ns = t.window_ns - t.compute_ns - t.idle_ns;
    return t;
}

IdleBreakdown idleBreakdown(const Trace& trace, const DeviceActivities& activity,
                            const IdleOptions& options) {
    IdleBreakdown out;
    out.rank = activity.rank;
    out.kernel_wait_ns = options.kernel_wait_ns;
    std::vector<const DeviceActivity*> work;
    const auto flush = [&] {
        if (!work.empty()) out.streams.push_back(streamIdle(trace, work, options, out.gaps));
        work.clear();
    };
    for (const DeviceActivity& a : activity.events) {
        if (!a.work) continue;
        if (!work.empty() && work.front()->lane != a.lane) flush();
        work.push_back(&a);
    }
    flush();
    return out;
}

} // namespace ts
