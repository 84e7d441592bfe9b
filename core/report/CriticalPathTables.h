#pragma once
// The critical path (analysis/CriticalPath.h) as tables and JSON:
// `trace-stats --view critical-path` prints them and the GUI's Critical Path
// view shows them; rows about one event select it on the timeline.
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

// {"window", "step_duration_us", "path_us", "breakdown": [{"bound_by",
//  "duration_us", "pct", "step_pct"}], "operators", "kernels", "path":
//  [{"event", "name", "bound_by", "type", "start_us", "duration_us"}],
//  "what_if", "ranked", "graph": {"nodes", "edges", ...}, "notes"}
nlohmann::json criticalPathJson(const Trace& trace, const CriticalPathReport& report);

} // namespace ts
