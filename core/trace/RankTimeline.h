#pragma once
// The ranks of one distributed profile as one trace for the timeline: every
// rank's lanes, in rank order, one rank above the next, on one clock.
#include <vector>

#include "trace/RankFolder.h"
#include "trace/Trace.h"

namespace ts {

// Lanes are named "rank <r>: <lane>"; times are aligned through each trace's
// absolute origin (the ranks' clocks: one machine's, or the machines' as
// well as they agree). Correlation and External ids are offset per rank so
// that a kernel never links to another rank's launch. The steps are the
// lowest rank's; memory samples are left out (one counter per rank would
// read as one process's). Events keep their names, shapes, kinds, steps and
// Kineto data.
Trace mergeRankTraces(const std::vector<RankTrace>& ranks);

} // namespace ts
