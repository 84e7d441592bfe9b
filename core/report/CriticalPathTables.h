#pragma once
// The critical path (analysis/CriticalPath.h) as tables and JSON:
// `trace-stats --view critical-path` prints them and the GUI's Critical Path
// view shows them; rows about one event select it on the timeline.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/CriticalPath.h"
#include "report/TableSpec.h"

namespace ts {

// A row per bound category on the path: its time, share of the path and
// of the window (HTA's summary()).
table::TableSpec criticalPathBoundTable(const CriticalPathReport& report);
// A row per operator or kernel name on the path: time, shares, events.
table::TableSpec criticalPathItemTable(const CriticalPathReport& report);
// The what-if asked for (first; `asked` instead of the report's when given),
// then each top item halved, most saved first.
table::TableSpec whatIfTable(const CriticalPathReport& report, const WhatIfResult* asked = nullptr);
// The path's stretches in order: where, how long, what bounds it, the event.
table::TableSpec criticalPathEventTable(const Trace& trace, const CriticalPathReport& report);
// One row: the window, its length and the path's, how far the path runs past
// the window's end, what the Of Step column sums to and the note below (CSV,
// which has no titles or notes, gets the figures this way).
table::TableSpec criticalPathWindowTable(const CriticalPathReport& report);

// "" when the path is no longer than its window; else why the path's
// shares of the window (Of Step) sum past 100%: "the path runs 11.8 ms past
// the CPU end of ProfilerStep#2 (the GPU work it launched ends later), so
// Of Step sums to 106.7%".
std::string criticalPathLengthNote(const CriticalPathReport& report);

// {"window", "step_duration_us", "path_us", "path_past_step_end_us",
//  "step_pct_sum", "breakdown": [{"bound_by", "duration_us", "pct",
//  "step_pct"}], "operators", "kernels", "path": [{"event", "name",
//  "bound_by", "type", "start_us", "duration_us"}], "what_if", "ranked",
//  "graph": {"nodes", "edges", ...}, "notes" (the graph's, then
//  criticalPathLengthNote's)}
nlohmann::json criticalPathJson(const Trace& trace, const CriticalPathReport& report);

} // namespace ts
