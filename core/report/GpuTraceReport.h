#pragma once
// Text, CSV and JSON of the GPU views of a Kineto trace (GpuTraceAnalysis):
// the Overview (per step and average, GPU summary, recommendations), the
// Operators view and the Kernels view, as `trace-stats --view` prints them.
// Times are microseconds, as in the trace.
#include <cstddef>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "analysis/GpuTraceAnalysis.h"

namespace ts {

std::string gpuOverviewText(const GpuTraceAnalysis& analysis);
std::string gpuOverviewCsv(const GpuTraceAnalysis& analysis); // one row per step, then "average"
// {"steps": [{"step", "kernel_us", ..., "total_us"}], "average": {...},
//  "gpu": {"name", "utilization_pct", "sm_efficiency_pct", "achieved_occupancy_pct",
//  "tensor_core_pct"}, "recommendations": [...]}
nlohmann::json gpuOverviewJson(const GpuTraceAnalysis& analysis);

// `limit` rows at most (0 = all).
std::string deviceOpsText(const DeviceOpTable& table, size_t limit = 0);
std::string deviceOpsCsv(const DeviceOpTable& table, size_t limit = 0);
nlohmann::json deviceOpsJson(const DeviceOpTable& table, size_t limit = 0);

// by_op: grouped by kernel, operator and launch configuration.
std::string kernelsText(const KernelTables& tables, bool by_op, size_t limit = 0);
std::string kernelsCsv(const KernelTables& tables, bool by_op, size_t limit = 0);
nlohmann::json kernelsJson(const KernelTables& tables, bool by_op, size_t limit = 0);

// ns as microseconds: "1234" when whole, else "1234.567".
std::string microsText(double ns);

} // namespace ts
