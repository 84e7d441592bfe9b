#pragma once
// The Active Memory Timeline of a device (MemoryViz.js's): every allocation
// as a band over the trace, stacked in the order they were made, so that a
// free lets the bands above it slide down; the largest `max_bands` are drawn
// one by one and the rest summed (MemoryViz draws 15,000 and sums the rest).
// Time is the trace entry's index; blocks alive before the trace start at 0.
// A filter keeps some allocations and a range of entries (the zoom).
#include <cstdint>
#include <vector>

#include "snapshot/AllocationLifetimes.h"
#include "snapshot/SnapshotFilter.h"

namespace ts {

struct ActiveTimeline {
    int device = 0;
    int64_t steps = 0;              // trace entries
    int64_t first = 0, last = -1;   // the entries drawn (the filter's range)
    std::vector<ActiveBand> bands;  // the largest, in the order they were made
    std::vector<int64_t> allocated; // every allocation kept, after each entry
    int64_t peak = 0;               // of `allocated` in [first, last]
    int64_t peak_entry = -1;
    size_t summarized = 0; // allocations summed instead of drawn
};

ActiveTimeline activeTimeline(const MemorySnapshot& s, int device, size_t max_bands = 15000,
                              const SnapshotFilter& filter = {});

} // namespace ts
