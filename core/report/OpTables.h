#pragma once
// Trainscope's operator table (OpTable: its own traces and torch.profiler
// traces without Kineto's device events), described once
// (report/TableSpec.h): the GUI's Operators tab shows every column, and
// `trace-stats` prints the columns torch.profiler's key_averages().table()
// has, laid out as it lays them out (opTableText). Cell texts are
// torch.profiler's ("638.000us", "8.00 Kb", "83.33%"); values are ns, bytes,
// FLOPs and ratios.
#include <cstddef>
#include <string>

#include "analysis/OpStats.h"
#include "report/TableSpec.h"

namespace ts {

namespace op_column {
inline constexpr const char* kName = "name";
inline constexpr const char* kSelfCpu = "self_cpu_ns";
inline constexpr const char* kSelfDevice = "self_device_ns";
inline constexpr const char* kDeviceTotal = "device_total_ns";
inline constexpr const char* kShapes = "input_shapes";
} // namespace op_column

table::TableSpec opTableSpec(const OpTable& table);

// The first `limit` rows (0: all) as torch.profiler prints them: the device,
// memory, shape and FLOP columns only when one of those rows has any, long
// names and shapes cut, the totals under the table.
std::string formatOpTableText(const OpTable& table, size_t limit = 0);

} // namespace ts
