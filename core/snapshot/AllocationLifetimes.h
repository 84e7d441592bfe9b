#pragma once
// Every allocation of a device's trace with when it lived: the bands of the
// Active Memory Timeline, and what the filters, the peak and the flame graph
// of a snapshot are made from. Time is the trace entry's index.
#include <cstdint>
#include <vector>

#include "snapshot/MemorySnapshot.h"

namespace ts {

struct ActiveBand {
    static constexpr int64_t kBeforeTrace = -1;
    int64_t size = 0;
    uint32_t stack = 0;
    int64_t start = 0; // the entry that made it (alive after it); kBeforeTrace: before the trace
    int64_t end = 0;   // the entry that freed it (not alive after it); the entry count if never

    bool aliveAfter(int64_t entry) const { return start <= entry && entry < end; }
};

// In the order they were made, those alive before the trace first (MemoryViz
// stacks them at the bottom): a free whose alloc the ring buffer dropped, a
// block alive at the dump that no alloc of the trace opened.
// Kept with the snapshot (snapshot/SnapshotHistory.h).
const std::vector<ActiveBand>& allocationLifetimes(const MemorySnapshot& s, int device);

} // namespace ts
