#pragma once
// Opening a trace through its cached binary index (TraceIndex.h): the first
// open reads the JSON, and the caller then keeps an index of the result in
// the user's cache directory; later opens of the same, unchanged file load
// the index instead, in a fraction of the time. An index that is stale,
// truncated, corrupted or from another build is ignored (and replaced), so
// the cache can only make opening faster, never different.
//
// Where: $TRAINSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/trainscope/traces, else
// ~/.cache/trainscope/traces; one index per trace, named by a hash of the
// trace's absolute path, and beside it the companions made from it (the
// Overview's results, analysis/OverviewCache.h: "<hash>.tsov"), which name
// the trace just as the index does. `trainscope-cli trace-cache` shows and
// clears them all.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "trace/ReadProgress.h"
#include "trace/Trace.h"
#include "trace/TraceIndex.h"

namespace ts {

struct TraceCacheSettings {
    bool enabled = true;
    std::filesystem::path directory; // empty: defaultTraceCacheDirectory()
    // Smaller traces read from JSON about as fast as from an index.
    uint64_t min_trace_bytes = uint64_t(16) << 20;
    // The oldest indexes are removed once all of them exceed this.
    uint64_t max_total_bytes = uint64_t(4) << 30;
};

// "" when no directory can be named (no HOME).
std::filesystem::path defaultTraceCacheDirectory();

// How a trace was opened, and what keepTraceIndex needs afterwards.
struct TraceOpening {
    bool from_index = false;
    std::filesystem::path trace; // the trace file
    std::filesystem::path index; // the index file for this trace, "" none
    std::optional<TraceKey> key; // the trace's key when it was opened
    std::string note;            // why no index was used or kept, "" none
};

// The trace at `path`, from its index when a valid one exists, else read
// from the JSON (readChromeTraceFile: the same errors, progress and cancel).
Trace openTrace(const std::filesystem::path& path, const ReadProgress& progress,
                const TraceCacheSettings& settings, TraceOpening& opening);

// Writes the index of `trace`, read by openTrace, atomically, unless it came
// from one or the trace changed meanwhile; then trims the cache. Never
// throws: a cache that cannot be written only leaves a note in `opening`.
void keepTraceIndex(const Trace& trace, const TraceCacheSettings& settings, TraceOpening& opening);

// The companion file of the trace `opening` opened, beside its index: the
// index's path with `extension` (one of kTraceCacheCompanions) for its own;
// "" when the trace is not cached (small, cache off, no directory).
inline constexpr const char* kTraceCacheCompanions[] = {".tsov", ".tsrank"};
std::filesystem::path traceCacheCompanion(const TraceOpening& opening, const char* extension);

// The cache's file for the trace at `path` with `extension` (one of
// kTraceCacheCompanions), whatever the trace's size: for results kept of a
// trace that has no index (a rank's summary). "" when the cache is off or
// has no directory.
std::filesystem::path traceCacheFileFor(const std::filesystem::path& path,
                                        const TraceCacheSettings& settings, const char* extension);

struct TraceCacheUsage {
    std::filesystem::path directory;
    size_t files = 0;   // indexes and companions
    size_t indexes = 0; // of them
    uint64_t bytes = 0;
};
TraceCacheUsage traceCacheUsage(const TraceCacheSettings& settings);
// Removes every index and companion (only *.tsidx and *.tsov files);
// returns how many files.
size_t clearTraceCache(const TraceCacheSettings& settings);

} // namespace ts
