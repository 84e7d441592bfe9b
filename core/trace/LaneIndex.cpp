#include "trace/LaneIndex.h"

namespace ts {

// The events are sorted by lane: each lane's first is a binary search, so
// that asking for one event (the timeline's details at a click) costs
// O(lanes log events), not a pass over every event.
LaneIndex::LaneIndex(const Trace& trace) : events_(trace.events), begin_(trace.lanes.size() + 1) {
    size_t lo = 0;
    for (size_t lane = 0; lane < begin_.size(); ++lane) {
        size_t hi = events_.size();
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (size_t(events_.core(mid).lane) < lane)
                lo = mid + 1;
            else
                hi = mid;
        }
        begin_[lane] = lo;
    }
}

int32_t LaneIndex::innermostAt(int32_t lane, int64_t t) const {
    if (lane < 0 || size_t(lane) + 1 >= begin_.size()) return -1;
    // Binary search for the last event of the lane starting at or before t.
    size_t lo = begin_[size_t(lane)], hi = begin_[size_t(lane) + 1];
    const size_t first = lo;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (t < events_.core(mid).start_ns)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (lo == first) return -1;
    auto event = static_cast<int32_t>(lo - 1);
    while (event >= 0 && events_.core(size_t(event)).end_ns() < t)
        event = events_.core(size_t(event)).parent;
    return event;
}

size_t LaneIndex::firstStartingFrom(int32_t lane, int64_t t) const {
    size_t lo = begin(lane), hi = end(lane);
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (events_.core(mid).start_ns < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

} // namespace ts
