#pragma once
// What a table shows, without drawing it: beside ChartSpec, the one
// description of a table that the CLI prints (text, CSV, JSON) and the GUI
// shows (widgets/common/SpecTableModel: sort, filter, export). A view builds
// its TableSpec once from its analysis; both front ends then show the same
// columns under the same titles and units, in the same order.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ts::table {

// What a column holds: how the GUI aligns and sorts it and what JSON writes.
enum class ColumnKind {
    Text,    // left-aligned, sorted and written as text
    Number,  // right-aligned, sorted by Cell::value, a JSON number
    Integer, // likewise, a JSON integer
    YesNo,   // "Yes" / "No" (value 1 / 0), a JSON boolean
};

// What a number counts, so that the GUI can show it in its own style (µs
// with two decimals below 100, shares with two) where the CLI prints the
// cell's text (the plugin's figures, to the digit).
// Bytes: the GUI shows "3.4 MiB" where the CLI prints the cell's text (KB,
// or exact bytes); Milliseconds likewise with three decimals; Nanoseconds as
// "900 µs", "1.50 ms"; Flops (a count of FLOPs) as "1.23 GFLOP". With a
// unit, an unknown value (NaN) shows as "–" in the GUI.
enum class ColumnUnit { None, Microseconds, Milliseconds, Nanoseconds, Percent, Bytes, Flops };

struct Column {
    std::string key;   // JSON field name, stable across releases
    std::string title; // header in text, CSV and the GUI ("Total (us)")
    std::string tooltip;
    ColumnKind kind = ColumnKind::Text;
    bool hide_when_empty = false; // dropped when no row has text in it (shown())
    ColumnUnit unit = ColumnUnit::None;
    // A number that says what the row is about (a rank, a stream), not a
    // measure: a comparison (report/TableDiff.h) matches rows by it.
    bool identity = false;

    bool numeric() const { return kind == ColumnKind::Number || kind == ColumnKind::Integer; }
};

struct Cell {
    std::string text; // as printed and shown
    // The number behind `text` for numeric columns: the sort key, and what
    // JSON holds when TableSpec::json_numbers. NaN: unknown, sorts last.
    double value = std::nan("");
};

inline Cell textCell(std::string text) {
    return Cell{std::move(text), std::nan("")};
}
inline Cell numberCell(std::string text, double value) {
    return Cell{std::move(text), value};
}
inline Cell yesNoCell(bool yes) {
    return Cell{yes ? "Yes" : "No", yes ? 1.0 : 0.0};
}
inline Cell integerCell(int64_t n) {
    return Cell{std::to_string(n), double(n)};
}

struct TableSpec {
    std::string title; // "Kernels, by name"
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows; // each as long as `columns`
    // JSON rows hold numbers, integers and flags as such (Column::kind);
    // false: every cell as its text.
    bool json_numbers = true;
    // Optional, one per row: the trace event the row is about (a
    // Trace::events index, -1 none), which a GUI selects on its timeline
    // when the row is activated. Empty: rows are about no single event.
    std::vector<int32_t> row_events;

    // The column whose key is `key`; -1 when there is none.
    int columnIndex(const std::string& key) const;
};

// The table without the hide_when_empty columns that no row fills.
TableSpec shown(const TableSpec& table);
// The first `limit` rows (0: all).
TableSpec firstRows(TableSpec table, size_t limit);
// Text cells longer than `max_chars` cut to it, ending in "...", in every
// column but the last: a kernel name of hundreds of characters would
// otherwise widen every line of a text table. The last column runs on.
TableSpec withTextCut(TableSpec table, size_t max_chars);
// `table` with a first column holding `text` in every row (the device or
// rank that a table of several is about).
TableSpec withLeadingColumn(TableSpec table, Column column, const std::string& text);
// Appends `from`'s rows to `into` (the same columns); `into` takes `from`'s
// columns when it has none yet.
void appendRows(TableSpec& into, TableSpec from);

// Aligned plain text under a dashed rule (report/MarkdownTable.h's plainTable).
std::string toText(const TableSpec& table);
// A header line of titles, then a line per row.
std::string toCsv(const TableSpec& table);
// For data rather than reading: a header line of keys, numbers written
// exactly from Cell::value (integers as such, others in the shortest form
// that reads back the same; unknown ones empty), text cells as their text.
std::string toDataCsv(const TableSpec& table);
// [{key: value, ...}, ...], without the column keyed `omit` ("" none): a
// table of several ranks nests each rank's rows under it, without the rank.
nlohmann::json rowsJson(const TableSpec& table, std::string_view omit = {});

} // namespace ts::table
