#pragma once
// `trainscope-cli memory-stats SNAPSHOT` and `memory-diff A B`: PyTorch
// allocator snapshots (torch.cuda.memory._dump_snapshot's pickles, any size,
// read without running anything in them) as tables or JSON: per device the
// reserved and allocated memory, the peak over the trace and what was alive
// at it by stack, the segments, the timeline, the OOMs; and what grew from
// one snapshot to the next.
#include <cstddef>
#include <ostream>
#include <string>

namespace ts {

struct MemoryStatsOptions {
    std::string file, other; // other: memory-diff's B
    std::string view =
        "summary"; // summary | peak | flame | dump | segments | timeline | oom | state
    std::string format = "text"; // text | csv | json
    int device = -1;             // peak, timeline: the device (-1: each)
    size_t limit = 0;            // rows per table (0: all; timeline: 200 points)
    int64_t entry = -1;          // peak, flame, state: after this entry (-1: the peak's)
    // peak, flame, timeline: which allocations (snapshot/SnapshotFilter.h).
    std::string min_size;        // "1MiB", bytes
    std::string frame;           // a frame contains it
    std::string entries;         // "FIRST:LAST", either may be left out
    std::string group = "stack"; // peak: stack | frame | size
};

// 0 on success; 2 for a bad file or option (the message names it).
int runMemoryStats(const MemoryStatsOptions& options, std::ostream& out, std::ostream& err);
int runMemoryDiff(const MemoryStatsOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
