#pragma once
// `trainscope-cli trace-export FILE --sqlite OUT.db`: the SQL tables of
// trace-query (docs/sql.md) in a database file, with indexes.
// `trainscope-cli trace-export FILE --critical-path OUT`: the trace written
// again as a Chrome trace (Perfetto and Trainscope open it) with its
// critical path as a row of its own: one event per stretch of the path,
// named after the event it belongs to, with its bound and kind in args.
#include <ostream>
#include <string>

#include "inspect/TraceStatsCommand.h"

namespace ts {

struct TraceExportOptions {
    // file, cache, and the window (view_options: --step, --annotation, --instance)
    TraceStatsOptions trace;
    std::string critical_path_out; // where the marked trace goes
    std::string sqlite_out;        // where the database goes
};

// 0 on success; 2 for bad options or input (the message names them), with
// no file written.
int runTraceExport(const TraceExportOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
