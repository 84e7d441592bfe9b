#pragma once
// A device's trace replayed once: every allocation's lifetime and the peaks.
// Every figure over time (the summary's peaks, what was alive at an entry,
// the curves, the Active Memory Timeline, the filters) is read from it, so
// that a view of a 1 GB snapshot does not replay 15 million entries for each
// table. It is made on first use and kept with the snapshot (which must not
// change after it is read: a snapshot whose trace changed is replayed again).
// The curves (16 bytes an entry) are made only for the views that draw them:
// memory touched for the first time costs a command more than the replay's
// arithmetic does (docs/benchmarks.md, issue 62).
#include <cstdint>
#include <vector>

#include "snapshot/AllocationLifetimes.h"
#include "snapshot/MemorySnapshot.h"

namespace ts {

// Allocated and reserved bytes after each trace entry (for the timeline).
struct MemoryCurve {
    std::vector<int64_t> allocated, reserved;
};

struct DeviceHistory {
    // In the order they were made, those alive before the trace first.
    std::vector<ActiveBand> lifetimes;
    int64_t before_trace_bytes = 0; // alive before the trace began
    int64_t peak_allocated_bytes = 0, peak_entry = -1, peak_time_us = 0;
    int64_t peak_reserved_bytes = 0;
    size_t ooms = 0;
};

// Thread-safe; the references live as long as the snapshot.
const DeviceHistory& deviceHistory(const MemorySnapshot& s, int device);
// The curves: the same replay, keeping the live blocks' sizes only.
const MemoryCurve& deviceCurve(const MemorySnapshot& s, int device);

} // namespace ts
