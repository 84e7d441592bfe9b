#pragma once
// The Distributed view's tables, described once (report/TableSpec.h):
// `trace-stats FOLDER --view distributed` prints them and the GUI's
// Distributed tab shows them. Times are microseconds per step (the plugin's
// unit), bytes exact; averages per call show rounded half to even, as the
// plugin's, and keep their exact value behind the text.
#include <string>
#include <vector>

#include "analysis/DistributedView.h"
#include "report/TableSpec.h"

namespace ts {

namespace distributed_column {
inline constexpr const char* kRank = "rank";
inline constexpr const char* kName = "name";
inline constexpr const char* kComputation = "computation_us";
inline constexpr const char* kOverlapping = "overlapping_us";
inline constexpr const char* kCommunication = "communication_us";
inline constexpr const char* kOther = "other_us";
inline constexpr const char* kDataTransfer = "data_transfer_us";
inline constexpr const char* kSynchronizing = "synchronizing_us";
inline constexpr const char* kTotalBytes = "total_bytes";
inline constexpr const char* kTotalLatency = "total_latency_us";
} // namespace distributed_column

// A rank with one of its steps (or its average step).
struct RankRow {
    int64_t rank = -1;
    std::string worker, node, process, library, devices;
    size_t steps = 0;
    DistributedStep step;
    size_t collectives = 0;
    bool straggler = false;
};

// The rows of `view` for step `label` ("all": the average); a rank without
// that step gets an empty one.
std::vector<RankRow> rankRows(const DistributedView& view, const std::string& label);

// One row per rank: who it is, then its step's split.
table::TableSpec rankTable(const std::vector<RankRow>& rows);
// One row per step of a rank: the step's label, then its split.
table::TableSpec stepTable(const std::vector<DistributedStep>& steps);
// A rank's collectives (the plugin's "Communication Operations Stats").
table::TableSpec commOpTable(const std::vector<CommOpRow>& rows);
// One row per rank: where it ran and on which devices.
table::TableSpec deviceTable(const DistributedView& view);
// One row per metric: its distribution across the ranks (of their average
// step) and the ranks at the tails.
table::TableSpec spreadTable(const std::vector<MetricSpread>& spreads);
// The ranks that make the others wait most in collectives, first: calls
// they arrived last at, the others' wait for them, their own wait, their
// clock's offset. `limit` rows at most (0 = all).
table::TableSpec arrivalTable(const DistributedView& view, size_t limit = 0);

} // namespace ts
