#pragma once
// Queue length (analysis/QueueLength.h) and memory bandwidth
// (analysis/MemoryBandwidth.h) as tables and JSON: `trace-stats --view
// queue` and `--view memory-bw` print them and the GUI's Queue Length and
// Memory Bandwidth views show them. Keys carry the unit (blocked_us, mean_gbps).
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/MemoryBandwidth.h"
#include "analysis/QueueLength.h"
#include "report/TableSpec.h"

namespace ts {

// A row per rank and stream: HTA's summary of the queue length (over its
// points), the mean over time, and the time the queue was full.
table::TableSpec queueLengthTable(const std::vector<QueueLength>& ranks);
// A row per rank and kind of copy: copies, bytes, busy time, HTA's summary
// of the bandwidth (over its points above 0) and the mean while busy.
table::TableSpec memoryBandwidthTable(const std::vector<MemoryBandwidth>& ranks);

// {"max_queue_length", "ranks": [{"rank", "span_us", "streams": [{"gpu",
//  "stream", "count", "mean", "std", "min", "p25", "p50", "p75", "max",
//  "time_mean", "blocked_on_full_queue_us", "blocked_pct"}]}]}
nlohmann::json queueLengthJson(const std::vector<QueueLength>& ranks);
// {"ranks": [{"rank", "kinds": [{"kind", "copies", "bytes", "busy_us",
//  "busy_mean_gbps", "points", "mean_gbps", "std_gbps", "min_gbps",
//  "p25_gbps", "p50_gbps", "p75_gbps", "max_gbps"}]}]}
nlohmann::json memoryBandwidthJson(const std::vector<MemoryBandwidth>& ranks);

} // namespace ts
