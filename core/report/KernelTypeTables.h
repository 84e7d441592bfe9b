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
// A row per rank: HTA's communication/computation overlap (the share of
// communication time computation ran beside) and its two times.
table::TableSpec commCompOverlapTable(const std::vector<KernelTypeBreakdown>& ranks);
// Across ranks, a row per kernel type (alone or overlapping): the least,
// the mean and the most time of a rank, which ranks, and the spread (most
// over least): an uneven rank shows. Empty for one rank.
table::TableSpec kernelTypeSpreadTable(const std::vector<KernelTypeBreakdown>& ranks);
// A row per rank and kernel: type, count, total, mean, std, min, max.
table::TableSpec kernelsByTypeTable(const std::vector<KernelTypeBreakdown>& ranks);

// {"ranks": [{"rank", "comp_comm_overlap_pctg", "communication_us",
//  "overlapped_us", "types": [{"kernel_type", "time_us", "pct"}],
//  "kernels": [{"name", "kernel_type", "count", "total_us", ...}]}]}
// With several ranks also "spread": [{"kernel_type", "min_us", "min_rank",
// "mean_us", "max_us", "max_rank", "spread"}].
nlohmann::json kernelTypesJson(const std::vector<KernelTypeBreakdown>& ranks);

} // namespace ts
