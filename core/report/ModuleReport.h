#pragma once
// Text, CSV and JSON of the Modules view (ModuleView), as
// `trace-stats --view modules` prints them. Times are microseconds.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "analysis/ModuleView.h"

namespace ts {

// The tree, one line per module indented by depth, with its id, calls,
// operators, host and device total/self and mean time.
std::string modulesText(const ModuleView& view);
// One row per module, parents first, with "path": the module's ancestors and
// itself as "Name#id" joined by '/' ("Net#100/Conv2d#200"), since sibling
// instances often share a class name.
std::string modulesCsv(const ModuleView& view);
// {"modules": [{"name", "id", "occurrences", "operators", "host_total_us",
//  "host_self_us", "device_total_us", "device_self_us", "avg_us",
//  "calls": [[start_us, end_us]...], "children": [...]}]}
nlohmann::json modulesJson(const ModuleView& view);

} // namespace ts
