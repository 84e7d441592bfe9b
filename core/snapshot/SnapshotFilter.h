#pragma once
// What of a snapshot to look at: allocations of at least some size, made by
// a stack with a frame that contains some text, within a range of trace
// entries. memory_viz has the same three filters (its size slider, its
// stack search and its zoom); here they drive the Active Memory Timeline,
// the peak and what was alive at it, and the flame graph, in the GUI and
// in `memory-stats` alike.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "snapshot/AllocationLifetimes.h"
#include "snapshot/SnapshotAnalysis.h"

namespace ts {

struct SnapshotFilter {
    int64_t min_bytes = 0;  // smaller allocations are left out
    std::string frame_text; // a frame's "file:line:function" contains it (any case)
    int64_t first_entry = 0;
    int64_t last_entry = -1; // -1: to the end of the trace

    bool empty() const {
        return min_bytes <= 0 && frame_text.empty() && first_entry <= 0 && last_entry < 0;
    }
    // "no filter", or what it keeps, in words ("at least 1048576 bytes, ...").
    std::string describe() const;
};

// A filter as people type it: the CLI's options, the GUI's fields.
struct SnapshotFilterText {
    std::string min_size; // "1MiB", "4096"
    std::string frame;
    std::string entries; // "FIRST:LAST", either may be left out ("100:", ":5000")
};
// Throws std::invalid_argument naming the field (`size_field`, `entries_field`:
// what the caller calls them) and the value, in plain words.
SnapshotFilter parseSnapshotFilter(const SnapshotFilterText& text,
                                   const std::string& size_field = "--min-size",
                                   const std::string& entries_field = "--entries");

// Per stack, whether one of its frames contains `text` (case-insensitive);
// all true for an empty text. Stacks are shared, so each is tested once.
std::vector<uint8_t> stacksMatching(const MemorySnapshot& s, const std::string& text);

// The allocations a filter keeps and what they add up to.
struct FilteredAllocations {
    int device = 0;
    int64_t first = 0, last = -1;   // the entries looked at (last = -1: no trace)
    std::vector<ActiveBand> bands;  // kept, alive somewhere in [first, last]
    std::vector<int64_t> allocated; // their bytes alive after each entry of the trace
    int64_t peak_entry = -1;        // the largest of `allocated` in [first, last]
    int64_t peak_bytes = 0;
};

// The entries a filter looks at, [first, last] ((0, -1) for no trace);
// throws std::invalid_argument naming them when they are not inside the trace.
std::pair<int64_t, int64_t> filterRange(const MemorySnapshot& s, int device,
                                        const SnapshotFilter& filter);
// Throws as filterRange does.
FilteredAllocations filterAllocations(const MemorySnapshot& s, int device,
                                      const SnapshotFilter& filter);
// What of them was alive after `entry`, by stack, most bytes first (as
// aliveAt gives it for the whole trace).
std::vector<StackBytes> aliveAfter(const FilteredAllocations& f, int64_t entry);

} // namespace ts
