#pragma once
// Checks shared by the targets that end with a Trace: whatever a reader
// accepts, the analyses must take without crashing, and the trace must
// survive Trainscope's own writer.
#include "trace/Trace.h"

namespace ts::fuzz {

// Runs the GPU analysis (both rule sets) and the operator table over `trace`.
void analyzeTrace(const Trace& trace);
// Writes `trace` with ChromeTraceWriter and reads it back: the reader must
// accept its own writer's output with the same number of events.
void checkRoundTrip(const Trace& trace);

} // namespace ts::fuzz
