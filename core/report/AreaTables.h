#pragma once
// An area of the timeline (analysis/AreaSummary.h) as tables: the GUI's
// area panel shows them and `trace-stats --view area` prints them. The rows
// by name and by lane carry their events (AreaSummary's rows, in order) so
// that the GUI selects them on the timeline.
#include <string>

#include "analysis/AreaSummary.h"
#include "report/TableSpec.h"

namespace ts {

// "12.345 ms from 1,234.567 ms, 5 lanes, 20,345 events; GPU busy 45.2%".
std::string areaHeadline(const Trace& trace, const AreaSummary& summary);
// The range split like an Overview step (Kernel, Memcpy, ..., Other).
table::TableSpec areaCategoryTable(const AreaSummary& summary);
// Overall, one row per name, in AreaSummary::overall's order.
table::TableSpec areaNameTable(const Trace& trace, const AreaSummary& summary);
// One row per lane and name, in AreaSummary::by_lane's order.
table::TableSpec areaLaneTable(const Trace& trace, const AreaSummary& summary);
table::TableSpec areaMemoryTable(const AreaSummary& summary);

} // namespace ts
