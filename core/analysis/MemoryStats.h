#pragma once
// The Memory view's per-operator statistics of one device, as the
// TensorBoard plugin computes them: an operator's own records ("self") and
// those of everything nested under it, summed over its calls.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/MemoryRecords.h"

namespace ts {

struct MemoryOpRow {
    std::string name;
    int64_t calls = 0; // calls of the op in the range (on any device)
    int64_t size_increase = 0, self_size_increase = 0; // Σ bytes (allocations - releases)
    int64_t alloc_count = 0, self_alloc_count = 0;     // # allocations
    int64_t alloc_size = 0, self_alloc_size = 0;       // Σ allocated bytes
};

// Rows with a non-zero metric, sorted by name. Only records inside `range`
// count, and only ops that touch it (see MemoryTimeRange::touches).
std::vector<MemoryOpRow> memoryOpStats(const Trace& trace, const DeviceOpTree& tree,
                                       const MemoryRecords& all, int32_t device,
                                       const MemoryTimeRange& range = {});

} // namespace ts
