#pragma once
// Data forms of an OpTable: CSV (ops.csv: raw ns and bytes, read back by
// compare) and JSON; and sorting by any column. The table as people read it,
// in the GUI and in torch.profiler's text layout, is report/OpTables.h.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/OpStats.h"

namespace ts {

// Sort keys, e.g. "self_cpu" (the default), "cpu_total", "calls", "flops".
const std::vector<std::string>& opSortKeys();
// Descending by the key ("name": ascending). Throws std::invalid_argument
// naming the key and the accepted ones.
void sortOpTable(OpTable& table, const std::string& key);

// `limit` rows at most (0 = all).
std::string formatOpTableCsv(const OpTable& table, size_t limit = 0);
nlohmann::json opTableToJson(const OpTable& table, size_t limit = 0);

// torch.profiler's unit formatting: "638.000us", "10.720ms", "8.00 Kb".
std::string formatDurationNs(double ns);
std::string formatBytes(int64_t bytes);

} // namespace ts
