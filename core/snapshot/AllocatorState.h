#pragma once
// Allocator State History (MemoryViz.js's): the segments of a device and the
// blocks in them after any trace entry, found by undoing the trace from the
// snapshot's state backwards (an alloc undone removes its block, a free
// undone brings it back, a segment's cudaMalloc undone removes it, its
// cudaFree undone brings it back).
#include <cstdint>
#include <vector>

#include "snapshot/MemorySnapshot.h"

namespace ts {

struct StateBlock {
    int64_t address = 0, size = 0;
    uint32_t stack = 0;
    bool pending_free = false; // freed, its free not yet completed
};

struct StateSegment {
    int64_t address = 0, size = 0, stream = 0;
    std::vector<StateBlock> blocks; // by address
    int64_t allocated() const;
};

struct AllocatorState {
    int64_t entry = -1;                 // after this trace entry
    std::vector<StateSegment> segments; // by address
    int64_t reserved_bytes = 0, allocated_bytes = 0;
    size_t blocks = 0;
};

AllocatorState allocatorStateAt(const MemorySnapshot& s, int device, int64_t entry);

} // namespace ts
