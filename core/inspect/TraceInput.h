#pragma once
// A trace file as the trace commands read it: through the trace cache (a
// large trace opened before loads from its index), with the progress line on
// a terminal. The index of a freshly read trace is written after the
// command's output, so the answer is not kept waiting for it.
#include <ostream>
#include <string>

#include "trace/TraceCache.h"

namespace ts {

class TraceInput {
public:
    // Throws what readChromeTraceFile throws.
    TraceInput(const std::string& file, bool use_cache, bool progress_line, std::ostream& err);

    const Trace& trace() const { return trace_; }
    // Writes the index for the next open (once); a cache that cannot be
    // written is a note on `err`, never an error of the command.
    void keepIndex();

private:
    TraceCacheSettings settings_;
    TraceOpening opening_;
    std::ostream& err_;
    Trace trace_;
};

} // namespace ts
