#pragma once
// A trace file as the trace commands read it: through the trace cache (a
// large trace opened before loads from its index), with the progress line on
// a terminal. The index of a freshly read trace is written on a thread of its
// own while the command analyses the trace (which only reads it), so neither
// waits for the other.
#include <chrono>
#include <ostream>
#include <string>
#include <thread>

#include "trace/TraceCache.h"

namespace ts {

class TraceInput {
public:
    struct Options {
        bool cache = true;          // through the trace cache
        bool progress_line = false; // on a terminal
        bool timings = false;       // print where the time went (keepIndex prints it)
    };
    // Throws what readChromeTraceFile throws.
    TraceInput(const std::string& file, const Options& options, std::ostream& err);
    ~TraceInput(); // waits for the index being written (it is atomic in any case)
    TraceInput(const TraceInput&) = delete;
    TraceInput& operator=(const TraceInput&) = delete;

    const Trace& trace() const { return trace_; }
    // How the trace was opened (its cache files), as it was before the
    // index writer began (which adds its notes to its own copy).
    const TraceOpening& opening() const { return opened_; }
    // For --timings: the analysis was the Overview cache's (OverviewCache.h).
    void setOverviewCached(bool cached) { overview_cached_ = cached; }
    // Waits for the index for the next open (once); a cache that cannot be
    // written is a note on `err`, never an error of the command. With
    // timings, then prints "timings: read 4.12 s (JSON), analysis and output
    // 0.40 s, index kept 0.61 s beside it", "event store: 161.2 MB, 57.4
    // B/event" and "peak memory: 402 MB after the read, 437 MB in all" on
    // `err`.
    void keepIndex();

private:
    using Clock = std::chrono::steady_clock;

    Options options_;
    Clock::time_point started_;
    TraceCacheSettings settings_;
    TraceOpening opening_;
    std::ostream& err_;
    Trace trace_;
    TraceOpening opened_; // after trace_: a copy of opening_ once it is read
    bool overview_cached_ = false;
    Clock::time_point read_;
    int64_t peak_after_read_ = 0; // bytes of resident memory (VmHWM)
    std::thread index_writer_;
    Clock::duration index_time_{};
};

} // namespace ts
