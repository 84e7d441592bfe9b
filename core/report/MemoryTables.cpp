#include "report/MemoryTables.h"

#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …

Cell sizeCell(int64_t bytes, SizeText sizes) {
    return table::numberCell(sizes == SizeText::Kilobytes ? fixed(double(bytes) / 1024, 2)
                                                          : std::to_string(bytes),
                             double(bytes));
}

Cell timeCell(const std::optional<int64_t>& ns) {
    return ns ? table::numberCell(microsText(double(*ns)), double(*ns) / 1000) : Cell{};
}

Column sizeColumn(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, table::ColumnKind::Integer, false, table::ColumnUnit::Bytes};
}

Column countColumn(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, table::ColumnKind::Integer};
}

Column timeColumn(const char* key, const char* title, const char* tooltip) {
    return Column{
        key, title, tooltip, table::ColumnKind::Number, false, table::ColumnUnit::Microseconds};
}

} // namespace

table::TableSpec memoryOperatorTable(const std::vector<MemoryOpRow>& rows, SizeText sizes) {
    table::TableSpec spec;
    spec.title = "Operators";
    spec.columns = {
        Column{memory_column::kOperator, "Operator", "Operator name"},
        countColumn("calls", "Calls", "Calls of the operator in the range"),
        sizeColumn(memory_column::kSizeIncrease, "Size Increase",
                   "Allocated − released by the operator and everything it called"),
        sizeColumn("self_size_increase_bytes", "Self Size Increase",
                   "Allocated − released by the operator itself"),
        countColumn("allocation_count", "Allocation Count",
                    "Allocations by the operator and everything it called"),
        countColumn("self_allocation_count", "Self Allocation Count",
                    "Allocations by the operator itself"),
        sizeColumn("allocation_size_bytes", "Allocation Size",
                   "Bytes allocated by the operator and everything it called"),
        sizeColumn("self_allocation_size_bytes", "Self Allocation Size",
                   "Bytes allocated by the operator itself"),
    };
    spec.rows.reserve(rows.size());
    for (const MemoryOpRow& r : rows)
        spec.rows.push_back(
            {table::textCell(r.name), table::integerCell(r.calls), sizeCell(r.size_increase, sizes),
             sizeCell(r.self_size_increase, sizes), table::integerCell(r.alloc_count),
             table::integerCell(r.self_alloc_count), sizeCell(r.alloc_size, sizes),
             sizeCell(r.self_alloc_size, sizes)});
    return spec;
}

table::TableSpec memoryAllocationTable(const std::vector<MemoryAllocation>& rows, SizeText sizes) {
    table::TableSpec spec;
    spec.title = "Allocations";
    spec.columns = {
        Column{memory_column::kOperator, "Operator",
               "The operator that allocated (\"parent (aten::empty…)\" when an empty tensor was "
               "made for its caller)"},
        sizeColumn(memory_column::kBytes, "Size", "Bytes allocated"),
        timeColumn("allocated_at_us", "Allocated At (us)",
                   "From the start of the trace; empty when it was allocated before the selected "
                   "range or the trace"),
        timeColumn("released_at_us", "Released At (us)",
                   "From the start of the trace; empty when it was still held at the end of the "
                   "selected range or the trace"),
        timeColumn("lifetime_us", "Lifetime (us)", "Released at − allocated at"),
    };
    spec.rows.reserve(rows.size());
    for (const MemoryAllocation& a : rows)
        spec.rows.push_back({table::textCell(a.op), sizeCell(a.bytes, sizes),
                             timeCell(a.allocated_ns), timeCell(a.released_ns),
                             timeCell(a.lifetimeNs())});
    return spec;
}

} // namespace ts
