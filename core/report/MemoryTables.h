#pragma once
// The Memory view's two tables, described once (report/TableSpec.h):
// `trace-stats --view memory` prints them and the GUI's Memory tab shows
// them. Sizes are bytes behind the cells; the CLI's text shows KB (1024
// bytes, the plugin's default unit), its CSV and JSON exact bytes, the GUI
// "3.4 MiB". Times are microseconds from the start of the trace, empty when
// outside the records.
#include <vector>

#include "analysis/MemoryStats.h"
#include "analysis/MemoryView.h"
#include "report/TableSpec.h"

namespace ts {

namespace memory_column {
inline constexpr const char* kOperator = "operator";
inline constexpr const char* kBytes = "bytes";
inline constexpr const char* kSizeIncrease = "size_increase_bytes";
} // namespace memory_column

// What a size cell's text holds.
enum class SizeText { Kilobytes, Bytes };

table::TableSpec memoryOperatorTable(const std::vector<MemoryOpRow>& rows,
                                     SizeText sizes = SizeText::Kilobytes);
table::TableSpec memoryAllocationTable(const std::vector<MemoryAllocation>& rows,
                                       SizeText sizes = SizeText::Kilobytes);

} // namespace ts
