#pragma once
// Text, CSV and JSON of the Memory view (MemoryView), as
// `trace-stats --view memory` prints them. Bytes are exact in CSV and JSON,
// KB (1024 bytes, the plugin's default unit) in text; times are
// microseconds from the start of the trace.
#include <cstddef>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "analysis/MemoryView.h"

namespace ts {

// Per device: the peak, the operator table, the allocation table. `limit`
// rows per table at most (0 = all).
std::string memoryText(const MemoryView& view, size_t limit = 0);
// Three CSV tables separated by an empty line, each with a header and the
// device in the first column: the peaks (with "curve": "allocated" or
// "net_since_start", see DeviceMemoryView), the operators, the allocations.
std::string memoryCsv(const MemoryView& view, size_t limit = 0);
// {"own_samples", "devices": [{"name", "peak_allocated_bytes", "peak_time_us",
//  "curve_points", "curve_kind" ("allocated" or "net_since_start", see
//  DeviceMemoryView), "curve": [[t_us, allocated, reserved or null]...],
//  "operators": [{"name", "calls", "size_increase_bytes", ...}],
//  "allocations": [{"operator", "bytes", "allocated_at_us", "released_at_us",
//  "lifetime_us"}]}]}; the curve down-sampled to `max_curve_points` keeping the peak.
nlohmann::json memoryJson(const MemoryView& view, size_t limit = 0, size_t max_curve_points = 2000);

} // namespace ts
