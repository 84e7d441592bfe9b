#pragma once
// The temporal and idle-time breakdowns (analysis/IdleTime.h) as tables
// (report/TableSpec.h), text, CSV and JSON: `trace-stats --view temporal`
// and `--view idle` print them and the GUI's Temporal and Idle Time views
// show them. Keys are HTA's names with their unit (idle_us, host_wait_us).
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/IdleTime.h"
#include "report/TableSpec.h"

namespace ts {

// A row per rank: idle, compute, non-compute and the window, and shares.
table::TableSpec temporalTable(const std::vector<TemporalBreakdown>& ranks);
// A row per stream: its idle time by cause, and shares of it.
table::TableSpec idleTable(const std::vector<IdleBreakdown>& ranks);
// A row per stream and cause: count, mean, std, min, quartiles, max.
table::TableSpec idleIntervalTable(const std::vector<IdleBreakdown>& ranks);

// What the trace's device activity leaves out, and why, for notes.
std::vector<std::string> activityNotes(const DeviceActivities& activity);
std::vector<std::string> activityNotes(const ActivityFacts& facts);

// {"ranks": [{"rank", "idle_us", "compute_us", "non_compute_us",
//  "kernel_us", "idle_pct", "compute_pct", "non_compute_pct"}]}
nlohmann::json temporalJson(const std::vector<TemporalBreakdown>& ranks);
// {"kernel_wait_threshold_us", "ranks": [{"rank", "streams": [{"gpu",
//  "stream", "host_wait_us", "kernel_wait_us", "other_us", "idle_us",
//  "intervals": {"host_wait": {"count", "mean_us", "std_us", "min_us",
//  "p25_us", "p50_us", "p75_us", "max_us"}, ...}}]}]}
nlohmann::json idleJson(const std::vector<IdleBreakdown>& ranks);

} // namespace ts
