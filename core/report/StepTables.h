#pragma once
// The Overview's tables, described once (report/TableSpec.h): the time of
// each step by category (`trace-stats --view overview` prints it; the GUI
// draws it as stacked bars) and the average step by category (the GUI's
// table beside the share chart). Times are microseconds, as the TensorBoard
// plugin shows them.
#include <string>
#include <vector>

#include "analysis/GpuOverview.h"
#include "report/TableSpec.h"

namespace ts {

namespace step_column {
inline constexpr const char* kCategory = "category";
inline constexpr const char* kTimeUs = "time_us";
inline constexpr const char* kPercent = "percent";
} // namespace step_column

// One row per category: its mean time over the steps and its share of the
// average step. `categories` and `average_us` are as long as each other.
table::TableSpec averageStepTable(const std::vector<std::string>& categories,
                                  const std::vector<double>& average_us);

// One row per step and a last row "average": the step's label, then a
// column per role of `roles` ("Kernel (us)", key "kernel_us"), then the total.
// The average row's text has one decimal, as the plugin shows it.
table::TableSpec stepTimeTable(const GpuOverview& overview, const std::vector<GpuRole>& roles);

// The roles the plugin shows: no GPU columns for a CPU-only trace, no
// Communication without any.
std::vector<GpuRole> shownRoles(const GpuOverview& overview);
// Every role, Total last (the CSV's and JSON's columns).
std::vector<GpuRole> everyRole();

} // namespace ts
