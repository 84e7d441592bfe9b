#pragma once
// The binary index of a trace (".tsidx"): a Trace as read from its JSON, in a
// form that loads in a fraction of a second. TraceCache keeps one per large
// trace so that opening it again skips the JSON. The file names the trace it
// was made from (TraceKey) and is checked before anything in it is used: a
// stale, truncated, corrupted or foreign file is refused (nullopt), never
// trusted and never a crash, so the caller reads the JSON instead.
//
// Layout, little-endian: a fixed header (magic, format version, the layout of
// the records below, the key, the body's length and checksum), then the
// body: sections in a fixed order, each a count and its items, 8-byte
// aligned. Records are stored as their in-memory bytes, so the layout hash
// (sizes and field offsets) must match this build's.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "trace/Trace.h"

namespace ts {

// Which trace an index belongs to: the file's identity and a fingerprint of
// its content (TraceKey.h computes it).
struct TraceKey {
    uint64_t size = 0;
    int64_t mtime_ns = 0;
    uint64_t device = 0, inode = 0;
    uint64_t fingerprint[2] = {0, 0};

    bool operator==(const TraceKey& o) const {
        return size == o.size && mtime_ns == o.mtime_ns && device == o.device && inode == o.inode &&
               fingerprint[0] == o.fingerprint[0] && fingerprint[1] == o.fingerprint[1];
    }
    bool operator!=(const TraceKey& o) const { return !(*this == o); }
};

// The index of `trace` as bytes.
std::string writeTraceIndex(const Trace& trace, const TraceKey& key);
// Writes it to `file` (which the caller opened, e.g. a temporary file that
// is renamed into place afterwards); false when writing failed.
bool writeTraceIndex(const Trace& trace, const TraceKey& key, std::FILE* file);

// The trace, or nullopt with the reason in `why` (for the cache's notes and
// tests) when `bytes` is not a valid index of the trace `expected` names.
std::optional<Trace> readTraceIndex(std::string_view bytes, const TraceKey& expected,
                                    std::string* why = nullptr);
// Same, reading `file` from its current position (no copy of the whole file
// in memory).
std::optional<Trace> readTraceIndex(std::FILE* file, const TraceKey& expected,
                                    std::string* why = nullptr);

} // namespace ts
