#pragma once
// Output forms of an OpTable: a text table laid out like torch.profiler's
// key_averages().table(), CSV (ops.csv: raw ns and bytes) and JSON; and
// sorting by any column.
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
std::string formatOpTableText(const OpTable& table, size_t limit = 0);
std::string formatOpTableCsv(const OpTable& table, size_t limit = 0);
nlohmann::json opTableToJson(const OpTable& table, size_t limit = 0);

// torch.profiler's unit formatting: "638.000us", "10.720ms", "8.00 Kb".
std::string formatDurationNs(double ns);
std::string formatBytes(int64_t bytes);

} // namespace ts
