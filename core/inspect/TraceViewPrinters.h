#pragma once
// The printers of `trace-stats --view` (inspect/TraceViews.h registers them).
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/CriticalPath.h"
#include "inspect/TraceViews.h"
#include "report/TableSpec.h"
#include "trace/RankFolder.h"

namespace ts::printers {

// The span (--span: 1..n in time order) of the folder (or files) given;
// `count`: how many there are. Throws std::invalid_argument for a span out
// of range.
RankSpan chosenSpan(const TraceStatsOptions& o, int& count, int64_t span = 1);
// The span --span names, for a view that takes it.
RankSpan chosenSpan(const TraceViewRequest& request, int& count);

// Without --view: the operator table (--group-by, --scope, --sort;
// TraceStatsCommand.cpp).
void operatorTable(TraceViewRequest& request);
// overview, operators, kernels, kernels-by-op: the GPU views of a Kineto
// trace; the Overview of a large trace opened before comes from its cache.
void gpuView(TraceViewRequest& request);
// The time range and device of --start-us, --end-us and --device.
void memory(TraceViewRequest& request);
void modules(TraceViewRequest& request);
// A folder of per-rank traces (or several files), one span of it.
void distributed(TraceViewRequest& request);
// Holistic Trace Analysis' temporal and idle-time breakdowns and kernel
// launch statistics (DiagnosisPrinters.cpp).
void temporal(TraceViewRequest& request);
void idle(TraceViewRequest& request);
void launches(TraceViewRequest& request);
void kernelTypes(TraceViewRequest& request);
void queue(TraceViewRequest& request);
void memoryBandwidth(TraceViewRequest& request);
// User annotations (--annotations gpu|cpu) and frequent kernel sequences
// (--operator, --min-pattern-len).
void annotations(TraceViewRequest& request);
void kernelSequences(TraceViewRequest& request);
// Tables as --format asks: text (long names cut) or CSV; --limit rows each.
void printTables(const std::vector<table::TableSpec>& tables, const TraceStatsOptions& o,
                 std::ostream& out);
// The critical path of a step and what-if (CriticalPathPrinter.cpp).
void criticalPath(TraceViewRequest& request);
// What lies in a time range on every lane (AreaPrinter.cpp): --start-us and
// --end-us, or the window of --step / --annotation --instance.
void area(TraceViewRequest& request);
// The window --step, --annotation and --instance ask for (also trace-export's).
CpWindowChoice criticalPathWindow(const views::OptionValues& values);

} // namespace ts::printers
