#include "trace/LaneIndex.h"

#include <algorithm>

namespace ts {

LaneIndex::LaneIndex(const Trace& trace)
    : events_(trace.events), begin_(trace.lanes.size() + 1, trace.events.size()) {
    for (size_t i = events_.size(); i-- > 0;)
        begin_[events_.core(i).lane] = i;
    for (size_t l = trace.lanes.size(); l-- > 0;)
        begin_[l] = std::min(begin_[l], begin_[l + 1]);
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

} // namespace ts
