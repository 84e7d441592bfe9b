#pragma once
// Text, CSV and JSON of the Distributed view (DistributedView), as
// `trace-stats FOLDER --view distributed` prints them. Times are
// microseconds, bytes exact; averages per call are rounded half to even as
// the plugin's.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/DistributedView.h"

namespace ts {

// Which ranks get their full rows (steps, operations, devices): those of
// `--ranks 0,5-7,12`, else every rank of a view of at most kAllRankRowsUpTo
// ranks, else none (the distributions say what 1,024 ranks do).
struct RankSelection {
    std::vector<std::pair<int64_t, int64_t>> ranges; // inclusive; empty: automatic
    bool contains(int64_t rank) const;
    // "0,5-7,12" or "all"; throws std::invalid_argument naming the value.
    static RankSelection parse(const std::string& text);
};
inline constexpr size_t kAllRankRowsUpTo = 16;

// Per rank the average step split and the collectives' transfer/wait split,
// the steps, the communication operations, the devices, then the stragglers
// and the notes. `limit` operation rows per rank at most (0 = all).
std::string distributedText(const DistributedView& view, size_t limit = 0,
                            const RankSelection& rows = {});
// Three CSV tables separated by an empty line: the steps (one row per rank
// and step, then per rank its average as step "all"), the communication
// operations, the stragglers.
std::string distributedCsv(const DistributedView& view, size_t limit = 0,
                           const RankSelection& rows = {});
// {"span", "span_count", "rank_count", "plugin_compatible", "computation_imbalance",
//  "spreads": [{"metric", "ranks", "min_us", "median_us", "p95_us", "max_us",
//  "lowest", "highest"}], "arrivals": {"calls", "median_us", "p95_us", "max_us",
//  "verdict", "waits": [{"rank", "last_arrivals", "caused_wait_us", "waited_us",
//  "clock_offset_us"}] (every rank, who makes the others wait most first)},
//  "left_out": [...], and for the selected ranks:
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
nlohmann::json distributedJson(const DistributedView& view, size_t limit = 0,
                               const RankSelection& rows = {});

} // namespace ts
