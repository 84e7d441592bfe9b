#pragma once
// The Active Memory Timeline of a device (MemoryViz.js's): every allocation
// as a band over the trace, stacked in the order they were made, so that a
// free lets the bands above it slide down; the largest `max_bands` are drawn
// one by one and the rest summed (MemoryViz draws 15,000 and sums the rest).
// Time is the trace entry's index; blocks alive before the trace start at 0.
#include <cstdint>
#include <vector>

#include "snapshot/MemorySnapshot.h"

namespace ts {

struct ActiveBand {
    int64_t size = 0;
    uint32_t stack = 0;
    int64_t start = 0; // first entry it is alive after; 0 for blocks from before the trace
    int64_t end = 0;   // the entry that freed it (exclusive); `steps` if never freed
};

struct ActiveTimeline {
    int device = 0;
    int64_t steps = 0;              // trace entries
    std::vector<ActiveBand> bands;  // the largest, in the order they were made
    std::vector<int64_t> allocated; // every allocation, after each entry
    int64_t peak = 0;
    size_t summarized = 0; // allocations summed instead of drawn
};

ActiveTimeline activeTimeline(const MemorySnapshot& s, int device, size_t max_bands = 15000);

} // namespace ts
