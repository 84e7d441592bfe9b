#pragma once
// `trainscope-cli trace-cache [--clear]`: where the trace indexes live, how
// many there are and their size (trace/TraceCache.h), and removing them.
#include <ostream>

namespace ts {

struct TraceCacheOptions {
    bool clear = false;
};

int runTraceCache(const TraceCacheOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
