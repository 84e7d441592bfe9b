#pragma once
// The part of a trace a view narrows to (a step picked, an area dragged on
// the timeline): an event belongs when it starts inside [start_ns, end_ns),
// on the trace's clock. The default holds everything, and the tables made
// with it are the whole trace's.
#include <cstdint>
#include <limits>

namespace ts {

struct TimeWindow {
    int64_t start_ns = std::numeric_limits<int64_t>::min();
    int64_t end_ns = std::numeric_limits<int64_t>::max();

    bool all() const {
        return start_ns == std::numeric_limits<int64_t>::min() &&
               end_ns == std::numeric_limits<int64_t>::max();
    }
    bool contains(int64_t t) const { return t >= start_ns && t < end_ns; }
};

} // namespace ts
