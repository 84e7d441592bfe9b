#pragma once
// The Diff view's tables, described once (report/TableSpec.h):
// `trace-diff A B` prints them and the GUI's Diff tab shows them. Times are
// microseconds per step (or totals when a trace has no steps); changes are
// "+12.3%" of A, as in `compare` (A is the baseline).
#include <string>
#include <vector>

#include "analysis/TraceDiff.h"
#include "report/TableSpec.h"

namespace ts {

namespace diff_column {
inline constexpr const char* kName = "name";
inline constexpr const char* kStatus = "status";
inline constexpr const char* kA = "a_us";
inline constexpr const char* kB = "b_us";
inline constexpr const char* kDelta = "delta_us";
inline constexpr const char* kCallsA = "calls_a";
inline constexpr const char* kCallsB = "calls_b";
inline constexpr const char* kDeviceA = "device_a_us";
inline constexpr const char* kDeviceB = "device_b_us";
inline constexpr const char* kHostA = "host_a_us";
inline constexpr const char* kHostB = "host_b_us";
inline constexpr const char* kImpact = "impact_us";
inline constexpr const char* kChange = "change";
} // namespace diff_column

// What the cells' texts are for. Table: read in the terminal or the GUI
// (times to 0.1 us, deltas signed, a Change column). Data: CSV's texts
// (times as the trace has them, calls to 0.001), and no Change, which A and B
// give; the values behind the cells are the same.
enum class DiffText { Table, Data };

// "+12.3%" of `base`; "new" when there was nothing, "-" when nothing changed.
std::string changeText(double base, double value);

table::TableSpec diffCategoryTable(const std::vector<DiffCategory>& rows,
                                   DiffText text = DiffText::Table);

struct DiffRowsOf {
    bool kernels = false;  // kernels have no host time: no Host columns in tables
    bool by_device = true; // Change compares device (else host) self time
    DiffText text = DiffText::Table;
};

// The operators or kernels, each with its status and impact on the step.
table::TableSpec diffRowTable(const std::vector<DiffRow>& rows, const DiffRowsOf& of);

} // namespace ts
