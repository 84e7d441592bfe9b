#pragma once
// Text, CSV and JSON of the Distributed view (DistributedView), as
// `trace-stats FOLDER --view distributed` prints them. Times are
// microseconds, bytes exact; averages per call are rounded half to even as
// the plugin's.
#include <cstddef>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "analysis/DistributedView.h"

namespace ts {

// Per rank the average step split and the collectives' transfer/wait split,
// the steps, the communication operations, the devices, then the stragglers
// and the notes. `limit` operation rows per rank at most (0 = all).
std::string distributedText(const DistributedView& view, size_t limit = 0);
// Three CSV tables separated by an empty line: the steps (one row per rank
// and step, then per rank its average as step "all"), the communication
// operations, the stragglers.
std::string distributedCsv(const DistributedView& view, size_t limit = 0);
// {"span", "span_count", "plugin_compatible", "computation_imbalance",
//  "step_time_spread_us", "notes", "ranks": [{"rank", "rank_source", "worker",
//  "path", "node", "process", "backend", "world_size", "library", "uses_gpu",
//  "devices": [...], "collectives", "outside_steps", "average": {step},
//  "steps": [{"step", "computation_us", "overlapping_us", "communication_us",
//  "other_us", "total_us", "data_transfer_us", "synchronizing_us"}],
//  "operations": [{"name", "calls", "total_bytes", "avg_bytes",
//  "total_latency_us", "avg_latency_us", "data_transfer_us",
//  "avg_data_transfer_us"}]}], "stragglers": [{"rank", "worker",
//  "computation_us", "others_computation_us", "excess_us", "excess_pct",
//  "step_us", "others_step_us", "others_synchronizing_us",
//  "own_synchronizing_us", "message"}]}
nlohmann::json distributedJson(const DistributedView& view, size_t limit = 0);

} // namespace ts
