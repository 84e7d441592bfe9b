#pragma once
// B against A as an operation on analysed tables (heaptrack's diff of two
// analyses, not a second analysis): any TableSpec of one document beside the
// same table of another, rows matched by their key columns (the text and
// yes/no columns: a kernel's name, an operator's name and shapes, a
// stream), each measure (numeric column) as B's value and B − A. So every
// table view — Kernels, the diagnoses' tables, the critical path's — shows
// a comparison in place, with no diff code of its own.
#include <string>
#include <vector>

#include "report/TableSpec.h"

namespace ts::table {

struct TableDiffOptions {
    std::string label_a = "A", label_b = "B"; // for titles and tooltips
    // The measure whose |B − A| orders the rows (its key; "" the first measure).
    std::string order_key;
};

// Columns: the keys, "In" (both, A only, B only), then per measure its B
// value and "Δ" (B − A, with A's value in the tooltip). A row only in A has
// B's values empty and a negative change; only in B, a change equal to its
// value. Unknown numbers (NaN) stay unknown. Rows by |Δ order_key| descending.
TableSpec diffTables(const TableSpec& a, const TableSpec& b, const TableDiffOptions& options = {});

} // namespace ts::table
