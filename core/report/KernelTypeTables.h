#pragma once
// The GPU kernel breakdown (analysis/KernelTypes.h) as tables and JSON:
// `trace-stats --view kernel-types` prints them and the GUI's Kernel Types
// view shows them.
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/KernelTypes.h"
#include "report/TableSpec.h"

namespace ts {

// A row per rank and combination of types: its time and share.
table::TableSpec kernelTypeTable(const std::vector<KernelTypeBreakdown>& ranks);
// A row per rank and kernel: type, count, total, mean, std, min, max.
table::TableSpec kernelsByTypeTable(const std::vector<KernelTypeBreakdown>& ranks);

// {"ranks": [{"rank", "types": [{"kernel_type", "time_us", "pct"}],
//  "kernels": [{"name", "kernel_type", "count", "total_us", ...}]}]}
nlohmann::json kernelTypesJson(const std::vector<KernelTypeBreakdown>& ranks);

} // namespace ts
