#pragma once
// The reader's fast path (internal to core/snapshot): a trace entry as
// CPython pickles it, EMPTY_DICT, its memo, MARK, (key, value) pairs of
// memoized strings, small integers and memoized stacks, SETITEMS, read
// straight from the buffered bytes instead of through the machine's stack
// (nine in ten of a snapshot's opcodes are its trace entries'). An entry
// of any other shape (a string or a stack seen for the first time, a value
// that is a dict or a long number, bytes past the buffer's end) is left
// unread: the machine then reads it the long way, to the same record.
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "snapshot/SnapshotRecords.h"

namespace ts {

struct ScannedEntry {
    static constexpr size_t kMaxPairs = 16; // SnapshotRecords::setEventItems's limit
    std::array<std::pair<PV, PV>, kMaxPairs> items;
    size_t count = 0;
    bool memoized = false; // the dict is memoized, at memo_index
    size_t memo_index = 0;
    size_t bytes = 0; // what it took, after the EMPTY_DICT
};

// `bytes`: the `n` bytes after an EMPTY_DICT; `memo_next`: the index a
// MEMOIZE gives. False: not an entry of that shape (`out` is then garbage).
bool scanTraceEntry(const uint8_t* bytes, size_t n, const SnapshotRecords& records,
                    size_t memo_next, ScannedEntry& out);

} // namespace ts
