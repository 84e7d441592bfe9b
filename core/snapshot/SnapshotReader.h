#pragma once
// Reads a snapshot pickle (protocols 2 to 5, as _dump_snapshot and the C++
// _memory_snapshot_pickled write it) in one streaming pass: the file is read
// in blocks, never whole, and each dict becomes its record (frame, stack,
// trace entry, block, segment) as soon as it is complete, so memory holds
// the records, not a tree of Python objects (a trace entry: 32 bytes and 8
// of memo; the file spends about 65 on it). Most entries are read straight
// from the buffer (SnapshotEntryScan.h). Nothing in the pickle is ever run:
// GLOBAL, REDUCE and their kind are refused.
#include <functional>
#include <stdexcept>
#include <string>

#include "snapshot/MemorySnapshot.h"

namespace ts {

// The file, what is wrong, and where ("byte 1234"); what() is the message.
class SnapshotError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws SnapshotError (a truncated file, a pickle of something else, one
// that would run code, a snapshot without device_traces when `need_traces`).
// `progress` (optional) gets bytes read so far and the file's size.
MemorySnapshot readMemorySnapshot(const std::string& path,
                                  const std::function<void(size_t, size_t)>& progress = {});
// The same over bytes in memory (tests, the fuzzer); `origin` names them.
MemorySnapshot parseMemorySnapshot(const std::string& bytes, const std::string& origin);

} // namespace ts
