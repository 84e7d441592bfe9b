#pragma once
// `trainscope-cli trace-query FILE "SELECT ..."`: SQL over a trace
// (docs/sql.md). Rows stream as SQLite produces them, so a query that
// returns millions of rows runs in constant memory; `--schema` lists the
// tables. `trace-export FILE --sqlite OUT.db` (TraceExportCommand) writes the
// same tables into a file.
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace ts {

struct TraceQueryOptions {
    std::string file;
    std::string sql;
    std::string format = "text"; // text | csv | tsv | json
    size_t max_rows = 0;         // 0 = all
    bool schema = false;         // print the tables and columns instead
    bool cache = true;
    // --param NAME=VALUE: a value (a whole number, or null) for the query's
    // :NAME, as the GUI binds the selection (:start_ns, :step, ...).
    std::vector<std::string> params;
};

// 0 on success; 2 for a bad file or query (SQLite's message, where in the
// query, and the tables when a name is unknown).
int runTraceQuery(const TraceQueryOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
