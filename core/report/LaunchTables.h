#pragma once
// Kernel launch statistics (analysis/LaunchStats.h) as tables, text, CSV and
// JSON: `trace-stats --view launches` prints them and the GUI's Launches
// view shows them. Keys carry the unit (cpu_duration_us, launch_delay_us).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/LaunchStats.h"
#include "report/TableSpec.h"

namespace ts {

// Per rank, a row per measure: CPU duration of the calls, GPU duration of
// the work, launch delay: count, total, mean, median, 95th percentile, max.
table::TableSpec launchSummaryTable(const std::vector<LaunchStats>& ranks);
// Per rank, a row per outlier kind: its rule and how many launches.
table::TableSpec launchOutlierTable(const std::vector<LaunchStats>& ranks);
// What the tables show of each launch beside its figures: its kernel's and
// call's names and the work's start, taken from the trace while it is at
// hand, so that a folder's ranks are printed after their traces are gone
// (a few hundred names a rank, 12 bytes a launch).
struct LaunchNames {
    std::vector<std::string> names;        // each name once
    std::vector<uint32_t> kernel, runtime; // per launch of LaunchStats::launches, into names
    std::vector<int64_t> start_ns;         // per launch: the work's start
};
LaunchNames launchNames(const Trace& trace, const LaunchStats& stats);

// The outlying launches, each with its kernel and call, at most `limit`
// per rank (0: all), the longest delays first. `names[i]` are the names of
// `ranks[i]`'s launches.
table::TableSpec outlierLaunchTable(const std::vector<LaunchStats>& ranks,
                                    const std::vector<LaunchNames>& names, size_t limit);

// {"runtime_cutoff_us", "launch_delay_cutoff_us", "ranks": [{"rank",
//  "launches", "cpu_duration_us": {"total", "mean", "p50", "p95", "max"},
//  "gpu_duration_us": {...}, "launch_delay_us": {...}, "outliers":
//  {"short_kernels", "slow_runtime_calls", "long_launch_delays"},
//  "launch_list": [{"kernel", "runtime", "start_us", "cpu_duration_us",
//  "gpu_duration_us", "launch_delay_us"}]}]}, `limit` launches per rank (0: all).
nlohmann::json launchesJson(const std::vector<LaunchStats>& ranks,
                            const std::vector<LaunchNames>& names, size_t limit);

} // namespace ts
