#pragma once
// What was alive at a moment as a flame graph (memory_viz's "Allocated
// memory" view of a snapshot): the stacks merged frame by frame from the
// outermost, each node as wide as the bytes allocated under it. Laid out
// here, so that the GUI draws rectangles and the CLI prints rows of the
// same tree.
#include <cstdint>
#include <string>
#include <vector>

#include "snapshot/SnapshotAnalysis.h"

namespace ts {

struct FlameNode {
    std::string frame; // "file.py:12:forward"; the root: "all"
    int32_t parent = -1;
    int32_t depth = 0;  // the root 0, its outermost frames 1, ...
    int64_t bytes = 0;  // alive under this frame
    int64_t offset = 0; // bytes left of it in its row (the layout)
    int64_t self = 0;   // allocated with this frame the innermost
    int64_t blocks = 0; // allocations under it
};

struct MemoryFlame {
    std::vector<FlameNode> nodes; // parents before children, siblings most bytes first
    int32_t depth = 0;            // rows below the root
    int64_t total() const { return nodes.empty() ? 0 : nodes.front().bytes; }
};

MemoryFlame memoryFlame(const MemorySnapshot& s, const std::vector<StackBytes>& alive);

} // namespace ts
