#pragma once
// Which event of a lane is open at a time: the innermost one, as a memory
// record or a sample taken then belongs to it. Needs a finalized trace
// (events sorted by lane and start, parents set).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "trace/Trace.h"

namespace ts {

class LaneIndex {
public:
    explicit LaneIndex(const Trace& trace);
    // The innermost event of `lane` open at `t` (started at or before it and
    // not ended before it), -1 none.
    int32_t innermostAt(int32_t lane, int64_t t) const;
    // The lane's events are [begin(lane), end(lane)) of Trace::events.
    size_t begin(int32_t lane) const { return begin_[size_t(lane)]; }
    size_t end(int32_t lane) const { return begin_[size_t(lane) + 1]; }
    // The lane's first event starting at or after `t` (end(lane) if none).
    size_t firstStartingFrom(int32_t lane, int64_t t) const;

private:
    const EventStore& events_;
    std::vector<size_t> begin_; // where each lane's events begin; [lanes] = the end
};

} // namespace ts
