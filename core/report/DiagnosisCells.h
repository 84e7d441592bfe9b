#pragma once
// The cells and columns the diagnosis tables share (IdleTables,
// LaunchTables, KernelTypeTables): times in microseconds from ns, shares in
// percent, the rank column.
#include <cmath>

#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"
#include "report/TableSpec.h"

namespace ts::diagnosis {

// Microseconds with the trace's precision; empty for an unknown (NaN) value.
inline table::Cell micros(double ns) {
    return std::isnan(ns) ? table::Cell{} : table::numberCell(microsText(ns), ns / 1000);
}

// 0..100 with two decimals.
inline table::Cell percentCell(double percent) {
    return table::numberCell(fixed(percent, 2), percent);
}

inline table::Column usColumn(const char* key, const char* title, const char* tooltip = "") {
    return table::Column{
        key, title, tooltip, table::ColumnKind::Number, false, table::ColumnUnit::Microseconds};
}

inline table::Column percentColumn(const char* key, const char* title, const char* tooltip) {
    return table::Column{
        key, title, tooltip, table::ColumnKind::Number, false, table::ColumnUnit::Percent};
}

// A whole number that says what a row is about (table::Column::identity).
inline table::Column identityColumn(const char* key, const char* title, const char* tooltip) {
    table::Column column{key, title, tooltip, table::ColumnKind::Integer};
    column.identity = true;
    return column;
}

inline table::Column rankColumn() {
    return identityColumn("rank", "Rank", "distributedInfo.rank (0 without one)");
}
inline table::Column gpuColumn() {
    return identityColumn("gpu", "GPU", "The device");
}
inline table::Column streamColumn() {
    return identityColumn("stream", "Stream", "The CUDA stream");
}

} // namespace ts::diagnosis
