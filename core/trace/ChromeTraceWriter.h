#pragma once
// Trace -> Chrome Trace Event Format JSON that Perfetto and chrome://tracing
// open: complete events ("ph":"X") with args (input dims, sequence number,
// FLOPs, ...), one track per thread (thread_name metadata), a "steps" track,
// flow arrows from each forward op to its backward node ("s"/"f", bp "e") and
// CPU memory as a counter track ("C"). A "trainscope" object carries what the
// viewers ignore (origin, notes, window), so the reader can restore the trace.
#include <cstdint>
#include <filesystem>
#include <ostream>

#include "trace/Trace.h"

namespace ts {

struct ChromeTraceWriteOptions {
    // Events beyond this many are left out (the earliest are kept) with a
    // note in the file; 0 = no cap.
    int64_t max_events = 0;
    int window = 0;
    int64_t first_step = -1, last_step = -1;
};

void writeChromeTrace(const Trace& trace, std::ostream& out,
                      const ChromeTraceWriteOptions& options = {});
// Writes through a temporary file; throws std::runtime_error naming the path.
void writeChromeTraceFile(const Trace& trace, const std::filesystem::path& path,
                          const ChromeTraceWriteOptions& options = {});

} // namespace ts
