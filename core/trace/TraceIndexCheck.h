#pragma once
// What a trace loaded from an index must satisfy before anything uses it:
// every index into names, strings, lanes and events in range, parents before
// their children on the same lane, events grouped by lane, enum values known.
// The analysis trusts these (they hold for every trace the reader builds),
// so a corrupted index that passed its checksum still cannot make it read
// out of bounds.
#include <string>

#include "trace/Trace.h"

namespace ts {

// "" when `trace` is sound; otherwise the first problem, in words.
std::string traceIndexProblem(const Trace& trace);

} // namespace ts
