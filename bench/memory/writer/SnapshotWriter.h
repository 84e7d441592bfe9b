#pragma once
// Writes a CUDA allocator snapshot pickle as torch.cuda.memory._dump_snapshot
// writes it, from a seed: the same bytes make_snapshot.py writes for the same
// seed, entries, protocol and devices (make_snapshot.py is the slow, readable
// reference: 275 s for 82 MB; this streams gigabytes at hundreds of MB/s).
// The history is simulated twice: once for the segments at the dump, which
// the pickle holds first, then again, entry by entry into the file, so
// memory holds the allocator's live state, never the trace.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "ToyAllocator.h"

namespace ts::snapgen {

struct SnapshotSpec {
    uint64_t seed = 1;
    uint64_t entries = 2000; // per device, before the ring buffer's cut (a tenth)
    int protocol = 4;        // 2, 3, 4 or 5
    int devices = 1;
    // At most this many blocks alive at once (0: no bound, as make_snapshot.py):
    // a steady state with few segments, the shape of a training loop's
    // snapshot, where an unbounded toy allocator keeps hundreds of thousands.
    uint64_t max_live = 0;
};

struct WrittenSnapshot {
    uint64_t bytes = 0;
    std::vector<DeviceTotals> devices; // the figures a reader must find
};

// `out` null: nothing is written, the bytes are only counted.
WrittenSnapshot writeSnapshot(const SnapshotSpec& spec, std::FILE* out);
// The entries per device that make a snapshot of about `bytes` (from a
// small snapshot's bytes per entry).
uint64_t entriesForBytes(const SnapshotSpec& spec, uint64_t bytes);

} // namespace ts::snapgen
