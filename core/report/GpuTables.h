#pragma once
// The tables of the Kernels and Operators views of a Kineto trace, described
// once (report/TableSpec.h): `trace-stats --view kernels|kernels-by-op|
// operators` prints them, and the GUI's Kernels tab shows them. Titles follow
// the TensorBoard plugin's; times are microseconds, as in the trace.
#include "analysis/DeviceOpStats.h"
#include "analysis/KernelStats.h"
#include "report/TableSpec.h"

namespace ts {

// Keys of the kernel tables' columns (the JSON keys are the titles, as the
// plugin's CSV has them).
namespace kernel_column {
inline constexpr const char* kName = "Name";
inline constexpr const char* kTotalUs = "Total (us)";
} // namespace kernel_column

// Keys of the Operators table's columns that the GUI addresses.
namespace device_op_column {
inline constexpr const char* kShapes = "input_shape";
inline constexpr const char* kCallStack = "call_stack";
inline constexpr const char* kDeviceSelfUs = "device_self_us";
inline constexpr const char* kDeviceTotalUs = "device_total_us";
inline constexpr const char* kHostSelfUs = "host_self_us";
inline constexpr const char* kTcSelfPct = "tc_self_pct";
inline constexpr const char* kTcTotalPct = "tc_total_pct";
} // namespace device_op_column

// Kernels by name, or (by_op) by name, operator and launch configuration.
// The blocks-per-SM and occupancy columns are empty, and so hidden, when the
// trace records neither.
table::TableSpec kernelTableSpec(const KernelTables& tables, bool by_op);

// The Operators view's table; the Input Shape and Call Stack columns are
// filled when the table is grouped by them.
table::TableSpec deviceOpTableSpec(const DeviceOpTable& table);

} // namespace ts
