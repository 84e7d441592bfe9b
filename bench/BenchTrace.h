#pragma once
// How the trace benches open their trace: through the trace cache (a trace
// read once before loads from its index, which is kept after a JSON read),
// so that they measure a trace as the CLI and the GUI reopen it.
#include <string>

#include "trace/TraceCache.h"

namespace ts::bench {

// Throws what openTrace throws.
inline Trace openBenchTrace(const std::string& file, bool& from_index) {
    TraceOpening opening;
    const TraceCacheSettings settings;
    Trace trace = openTrace(file, {}, settings, opening);
    if (!opening.from_index) keepTraceIndex(trace, settings, opening);
    from_index = opening.from_index;
    return trace;
}

} // namespace ts::bench
