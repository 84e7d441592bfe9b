#pragma once
// The table classes of SqlRows.h, one factory each (internal to core/query).
#include <memory>

#include "query/SqlRows.h"

namespace ts {

std::unique_ptr<SqlRows> makeSliceRows(const SqlTraceContext& c);
std::unique_ptr<SqlRows> makeKernelRows(const SqlTraceContext& c);
std::unique_ptr<SqlRows> makeLaunchRows(const SqlTraceContext& c);
std::unique_ptr<SqlRows> makeArgRows(const SqlTraceContext& c);
// counters, memory, steps, names, lanes, trace_info, tables, columns
std::unique_ptr<SqlRows> makeSideRows(const SqlTraceContext& c, SqlTableId id);

} // namespace ts
