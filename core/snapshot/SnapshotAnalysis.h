#pragma once
// What a snapshot says, by PyTorch's own rules (torch/cuda/_memory_viz.py's
// segsum and MemoryViz.js's Active Memory Timeline): per device the reserved
// and allocated bytes, the blocks by state, the peak of allocated memory
// over the trace (time is the entry's index; only free_completed ends a
// block; blocks alive before the trace count from its start), what was alive
// at that peak by stack, the peak of reserved memory, the OOMs.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "snapshot/MemorySnapshot.h"
#include "snapshot/SnapshotHistory.h"

namespace ts {

struct DeviceMemorySummary {
    int device = 0;
    size_t segments = 0, entries = 0, ooms = 0;
    int64_t reserved_bytes = 0;       // the segments' total size
    int64_t allocated_bytes = 0;      // requested bytes of active_allocated blocks
    int64_t active_bytes = 0;         // block bytes of active_allocated blocks
    int64_t pending_free_bytes = 0;   // active_pending_free blocks
    int64_t inactive_bytes = 0;       // cached, free
    int64_t peak_allocated_bytes = 0; // over the trace (the timeline's peak)
    int64_t peak_entry = -1;          // its trace entry, -1 before the first
    int64_t peak_time_us = 0;
    int64_t peak_reserved_bytes = 0;
    int64_t before_trace_bytes = 0; // alive before the trace began
};

struct StackBytes {
    uint32_t stack = 0;
    int64_t bytes = 0;
    int64_t blocks = 0;
};

DeviceMemorySummary summarizeDevice(const MemorySnapshot& s, int device);
// What was alive at `entry` (after it; -1: before the trace), by stack, most
// bytes first.
std::vector<StackBytes> aliveAt(const MemorySnapshot& s, int device, int64_t entry);
// What of `bands` was alive after `entry`, by stack, most bytes first.
std::vector<StackBytes> aliveByStack(const std::vector<ActiveBand>& bands, int64_t entry);
// Per-stack bytes, most first (ties: the lower stack number first).
std::vector<StackBytes> sortedByBytes(const std::unordered_map<uint32_t, StackBytes>& by_stack);
// Blocks alive at the snapshot (active_allocated), by stack: what memory_viz's
// `memory` flame graph shows for that state.
std::vector<StackBytes> aliveAtSnapshot(const MemorySnapshot& s, int device);
// Whether PyTorch's viewers show this frame (they leave out the unwinder's
// and the interpreter's own C frames).
bool viewerShowsFrame(const MemorySnapshot& s, const SnapshotFrame& f);
// "train.py:10:main;model.py:42:forward;..." outermost first, the frames the
// viewers show; "<no frames>".
std::string stackText(const MemorySnapshot& s, uint32_t stack);
// The innermost frame outside PyTorch's own files (the user's code), else
// the innermost; "" for no frames.
std::string userFrame(const MemorySnapshot& s, uint32_t stack);

// Allocated and reserved bytes after each trace entry (for the timeline).
const MemoryCurve& memoryCurve(const MemorySnapshot& s, int device);

} // namespace ts
