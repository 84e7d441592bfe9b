#include "report/TableDiff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace ts::table {
namespace {

bool isKey(const Column& c) {
    return !c.numeric() || c.identity;
}

// The row's key: its key columns' texts, joined with a separator no name holds.
std::string rowKey(const TableSpec& t, const std::vector<Cell>& row) {
    std::string key;
    for (size_t c = 0; c < t.columns.size(); ++c)
        if (isKey(t.columns[c])) key += row[c].text + '\x1f';
    return key;
}

// A change as the measure's own text would show it: the same digits, a sign.
Cell changeCell(double delta, const Column& column) {
    if (std::isnan(delta)) return numberCell("", delta);
    char text[48];
    if (column.kind == ColumnKind::Integer)
        std::snprintf(text, sizeof text, "%+lld", static_cast<long long>(std::llround(delta)));
    else
        std::snprintf(text, sizeof text, "%+.2f", delta);
    return numberCell(text, delta);
}

double valueOr0(const std::vector<Cell>* row, size_t c) {
    return row ? (*row)[c].value : 0.0;
}

} // namespace

TableSpec diffTables(const TableSpec& a, const TableSpec& b, const TableDiffOptions& o) {
    TableSpec out;
    out.title = b.title + ": " + o.label_b + " − " + o.label_a;
    std::vector<size_t> keys, measures;
    for (size_t c = 0; c < b.columns.size(); ++c)
        (isKey(b.columns[c]) ? keys : measures).push_back(c);
    for (size_t c : keys)
        out.columns.push_back(b.columns[c]);
    out.columns.push_back({"in", "In",
                           "Whether the row is in both, in " + o.label_a + " only (gone in " +
                               o.label_b + ") or in " + o.label_b + " only (new)"});
    for (size_t c : measures) {
        Column value = b.columns[c];
        value.hide_when_empty = false;
        out.columns.push_back(value);
        Column delta = value;
        delta.key = value.key + "_delta";
        delta.title = "Δ " + value.title;
        delta.tooltip = o.label_b + " − " + o.label_a + ": " + value.tooltip;
        delta.kind = value.kind == ColumnKind::Integer ? ColumnKind::Integer : ColumnKind::Number;
        out.columns.push_back(delta);
    }
    // A's rows by key, each taken once (a key A repeats pairs in order).
    std::unordered_multimap<std::string, size_t> in_a;
    for (size_t r = 0; r < a.rows.size(); ++r)
        in_a.emplace(rowKey(a, a.rows[r]), r);
    std::vector<char> matched(a.rows.size(), 0);
    const auto emit = [&](const std::vector<Cell>* row_a, const std::vector<Cell>* row_b) {
        const std::vector<Cell>& shown = row_b ? *row_b : *row_a;
        std::vector<Cell> cells;
        for (size_t c : keys)
            cells.push_back(shown[c]);
        cells.push_back(textCell(row_a && row_b ? "both"
                                 : row_a        ? o.label_a + " only"
                                                : o.label_b + " only"));
        for (size_t c : measures) {
            cells.push_back(row_b ? (*row_b)[c] : numberCell("", std::nan("")));
            cells.push_back(changeCell(valueOr0(row_b, c) - valueOr0(row_a, c), b.columns[c]));
        }
        out.rows.push_back(std::move(cells));
    };
    for (const std::vector<Cell>& row : b.rows) {
        const auto range = in_a.equal_range(rowKey(b, row));
        const std::vector<Cell>* row_a = nullptr;
        for (auto it = range.first; it != range.second && !row_a; ++it)
            if (!matched[it->second]) {
                matched[it->second] = 1;
                row_a = &a.rows[it->second];
            }
        emit(row_a, &row);
    }
    for (size_t r = 0; r < a.rows.size(); ++r)
        if (!matched[r]) emit(&a.rows[r], nullptr);
    int order = out.columnIndex(o.order_key.empty() ? "" : o.order_key + "_delta");
    if (order < 0 && !measures.empty())
        order = out.columnIndex(b.columns[measures[0]].key + "_delta");
    if (order >= 0) {
        const auto size = [order](const std::vector<Cell>& row) {
            const double v = row[size_t(order)].value;
            return std::isnan(v) ? -1.0 : std::abs(v);
        };
        std::stable_sort(out.rows.begin(), out.rows.end(),
                         [&](const auto& x, const auto& y) { return size(x) > size(y); });
    }
    return out;
}

} // namespace ts::table
