#pragma once
// `trace-export --sqlite OUT.db`: the tables of SqlSchema.h written into a
// database file that any SQLite tool opens (as Nsight Systems exports its
// reports). Names are stored once (names), and slices and kernels are views
// that join them back, so the same queries run on the file and on the trace.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "trace/Trace.h"

namespace ts {

struct SqliteExportSummary {
    std::vector<std::pair<std::string, int64_t>> rows; // table, rows written
    int64_t bytes = 0;                                 // of the file
};

// Writes a temporary file beside `path` and renames it over `path` at the
// end: a failure leaves no file (and an existing one as it was). Throws
// std::runtime_error naming the path.
SqliteExportSummary exportSqlite(const Trace& trace, const std::string& path);

// The schema version the file's PRAGMA user_version holds.
inline constexpr int kSqliteExportVersion = 1;

} // namespace ts
