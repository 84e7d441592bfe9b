#include "report/DiffTables.h"

#include <cmath>
#include <cstdio>

#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …
namespace col = diff_column;

// The change in percent behind its text; unknown for "new".
Cell changeCell(double base, double value) {
    const double pct = base != 0 ? (value / base - 1) * 100 : value == 0 ? 0.0 : std::nan("");
    return table::numberCell(changeText(base, value), pct);
}

Cell microsCell(double ns, DiffText text) {
    return table::numberCell(text == DiffText::Table ? fixed(ns / 1000, 1) : microsText(ns),
                             ns / 1000);
}

// Signed in tables: what B adds to A (the GUI shows this text as well).
Cell signedCell(double ns, DiffText text) {
    if (text == DiffText::Data) return microsCell(ns, text);
    char out[32];
    std::snprintf(out, sizeof(out), "%+.1f", ns / 1000);
    return table::numberCell(out, ns / 1000);
}

// Calls per step: in tables whole numbers as they are, averages with two
// decimals; in data always three.
Cell callsCell(double value, DiffText text) {
    if (text == DiffText::Data) return table::numberCell(fixed(value, 3), value);
    return table::numberCell(
        value == std::floor(value) ? std::to_string(static_cast<int64_t>(value)) : fixed(value, 2),
        value);
}

Column micros(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, ColumnKind::Number, false, ColumnUnit::Microseconds};
}
// Shown as its text: signed, or a change in percent with "new".
Column number(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, ColumnKind::Number};
}

} // namespace

std::string changeText(double base, double value) {
    if (base == 0) return value == 0 ? "-" : "new";
    char text[32];
    std::snprintf(text, sizeof(text), "%+.1f%%", (value / base - 1) * 100);
    return text;
}

table::TableSpec diffCategoryTable(const std::vector<DiffCategory>& rows, DiffText text) {
    table::TableSpec spec;
    spec.title = "Step categories";
    spec.columns = {Column{col::kName, "Category", "Part of the step"},
                    micros(col::kA, "A (us)", "Mean per step in A"),
                    micros(col::kB, "B (us)", "Mean per step in B"),
                    number(col::kDelta, "Delta (us)", "B − A")};
    const bool table = text == DiffText::Table;
    if (table) spec.columns.push_back(number(col::kChange, "Change", "(B − A) / A"));
    for (const DiffCategory& c : rows) {
        std::vector<Cell> row{table::textCell(c.name), microsCell(c.a_ns, text),
                              microsCell(c.b_ns, text), signedCell(c.deltaNs(), text)};
        if (table) row.push_back(changeCell(c.a_ns, c.b_ns));
        spec.rows.push_back(std::move(row));
    }
    return spec;
}

namespace {

std::vector<Column> rowColumns(const DiffRowsOf& of) {
    std::vector<Column> c{
        Column{col::kName, of.kernels ? "Kernel" : "Operator",
               of.kernels ? "The kernel" : "The operator"},
        Column{col::kStatus, "Status",
               "Added, removed, more or less frequent, slower, faster or unchanged (a change "
               "below the threshold is unchanged)"},
        number(col::kCallsA, "Calls A", "Calls per step in A"),
        number(col::kCallsB, "Calls B", "Calls per step in B"),
        micros(col::kDeviceA, "Device A (us)",
               "Device self time per step in A (kernels it launched)"),
        micros(col::kDeviceB, "Device B (us)", "Device self time per step in B")};
    if (!of.kernels || of.text == DiffText::Data)
        c.insert(c.end(), {micros(col::kHostA, "Host A (us)", "Host self time per step in A"),
                           micros(col::kHostB, "Host B (us)", "Host self time per step in B")});
    c.push_back(number(col::kImpact, "Impact (us)",
                       "What it adds to (−: takes from) the step in B: device time on GPU "
                       "traces, else host time"));
    if (of.text == DiffText::Table)
        c.push_back(number(col::kChange, "Change", "(B − A) / A of the time the impact counts"));
    return c;
}

std::vector<Cell> rowCells(const DiffRow& r, const DiffRowsOf& of) {
    const DiffText t = of.text;
    std::vector<Cell> row{table::textCell(r.name),      table::textCell(toString(r.status)),
                          callsCell(r.calls_a, t),      callsCell(r.calls_b, t),
                          microsCell(r.device_a_ns, t), microsCell(r.device_b_ns, t)};
    if (!of.kernels || t == DiffText::Data)
        row.insert(row.end(), {microsCell(r.host_a_ns, t), microsCell(r.host_b_ns, t)});
    row.push_back(signedCell(r.impact_ns, t));
    if (t == DiffText::Table)
        row.push_back(changeCell(r.timeA(of.by_device), r.timeB(of.by_device)));
    return row;
}

} // namespace

table::TableSpec diffRowTable(const std::vector<DiffRow>& rows, const DiffRowsOf& of) {
    table::TableSpec spec;
    spec.title = of.kernels ? "Kernels" : "Operators";
    spec.columns = rowColumns(of);
    spec.rows.reserve(rows.size());
    for (const DiffRow& r : rows)
        spec.rows.push_back(rowCells(r, of));
    return spec;
}

} // namespace ts
