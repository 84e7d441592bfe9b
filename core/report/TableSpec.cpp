#include "report/TableSpec.h"

#include <charconv>

#include <nlohmann/json.hpp>

#include "report/MarkdownTable.h"
#include "util/Csv.h"

namespace ts::table {
namespace {

std::vector<std::string> titles(const TableSpec& t) {
    std::vector<std::string> out;
    out.reserve(t.columns.size());
    for (const Column& c : t.columns)
        out.push_back(c.title);
    return out;
}

std::vector<std::string> texts(const std::vector<Cell>& row) {
    std::vector<std::string> out;
    out.reserve(row.size());
    for (const Cell& c : row)
        out.push_back(c.text);
    return out;
}

nlohmann::json cellJson(ColumnKind kind, const Cell& cell) {
    if (kind == ColumnKind::Text) return cell.text;
    if (std::isnan(cell.value)) return nullptr;
    if (kind == ColumnKind::Integer) return static_cast<int64_t>(cell.value);
    if (kind == ColumnKind::YesNo) return cell.value != 0;
    return cell.value;
}

// A number as written for data: exact, and as short as reads back the same.
std::string exactText(ColumnKind kind, const Cell& cell) {
    if (kind == ColumnKind::Text) return cell.text;
    if (std::isnan(cell.value)) return {};
    if (kind == ColumnKind::YesNo) return cell.value != 0 ? "true" : "false";
    if (kind == ColumnKind::Integer) return std::to_string(static_cast<int64_t>(cell.value));
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, cell.value).ptr;
    return std::string(buffer, end);
}

} // namespace

int TableSpec::columnIndex(const std::string& key) const {
    for (size_t i = 0; i < columns.size(); ++i)
        if (columns[i].key == key) return int(i);
    return -1;
}

TableSpec shown(const TableSpec& table) {
    std::vector<size_t> kept;
    for (size_t c = 0; c < table.columns.size(); ++c) {
        bool filled = !table.columns[c].hide_when_empty;
        for (size_t r = 0; r < table.rows.size() && !filled; ++r)
            filled = c < table.rows[r].size() && !table.rows[r][c].text.empty();
        if (filled) kept.push_back(c);
    }
    if (kept.size() == table.columns.size()) return table;
    TableSpec out;
    out.title = table.title;
    out.json_numbers = table.json_numbers;
    for (size_t c : kept)
        out.columns.push_back(table.columns[c]);
    out.rows.reserve(table.rows.size());
    for (const std::vector<Cell>& row : table.rows) {
        std::vector<Cell> cells;
        cells.reserve(kept.size());
        for (size_t c : kept)
            cells.push_back(c < row.size() ? row[c] : Cell{});
        out.rows.push_back(std::move(cells));
    }
    return out;
}

TableSpec firstRows(TableSpec table, size_t limit) {
    if (limit != 0 && table.rows.size() > limit) table.rows.resize(limit);
    if (table.row_events.size() > table.rows.size()) table.row_events.resize(table.rows.size());
    return table;
}

TableSpec withTextCut(TableSpec table, size_t max_chars) {
    if (table.columns.size() < 2) return table;
    const size_t last = table.columns.size() - 1;
    for (std::vector<Cell>& row : table.rows)
        for (size_t c = 0; c < row.size() && c < last; ++c)
            if (table.columns[c].kind == ColumnKind::Text && row[c].text.size() > max_chars) {
                row[c].text.resize(max_chars > 3 ? max_chars - 3 : 0);
                row[c].text += "...";
            }
    return table;
}

std::string toText(const TableSpec& table) {
    TableRows rows;
    rows.reserve(table.rows.size());
    for (const std::vector<Cell>& row : table.rows)
        rows.push_back(texts(row));
    return plainTable(titles(table), rows);
}

std::string toCsv(const TableSpec& table) {
    std::string out = csvLine(titles(table)) + "\n";
    for (const std::vector<Cell>& row : table.rows)
        out += csvLine(texts(row)) + "\n";
    return out;
}

std::string toDataCsv(const TableSpec& table) {
    std::vector<std::string> keys;
    for (const Column& c : table.columns)
        keys.push_back(c.key);
    std::string out = csvLine(keys) + "\n";
    std::vector<std::string> cells;
    for (const std::vector<Cell>& row : table.rows) {
        cells.clear();
        for (size_t c = 0; c < table.columns.size(); ++c)
            cells.push_back(c < row.size() ? exactText(table.columns[c].kind, row[c]) : "");
        out += csvLine(cells) + "\n";
    }
    return out;
}

TableSpec withLeadingColumn(TableSpec table, Column column, const std::string& text) {
    table.columns.insert(table.columns.begin(), std::move(column));
    for (std::vector<Cell>& row : table.rows)
        row.insert(row.begin(), textCell(text));
    return table;
}

void appendRows(TableSpec& into, TableSpec from) {
    if (into.columns.empty()) into.columns = std::move(from.columns);
    if (!into.row_events.empty() || !from.row_events.empty()) {
        into.row_events.resize(into.rows.size(), -1);
        from.row_events.resize(from.rows.size(), -1);
        into.row_events.insert(into.row_events.end(), from.row_events.begin(),
                               from.row_events.end());
    }
    for (std::vector<Cell>& row : from.rows)
        into.rows.push_back(std::move(row));
}

nlohmann::json rowsJson(const TableSpec& table, std::string_view omit) {
    nlohmann::json rows = nlohmann::json::array();
    for (const std::vector<Cell>& row : table.rows) {
        nlohmann::json j = nlohmann::json::object();
        for (size_t c = 0; c < table.columns.size() && c < row.size(); ++c) {
            const Column& column = table.columns[c];
            if (!omit.empty() && column.key == omit) continue;
            const Cell& cell = row[c];
            j[column.key] =
                table.json_numbers ? cellJson(column.kind, cell) : nlohmann::json(cell.text);
        }
        rows.push_back(std::move(j));
    }
    return rows;
}

} // namespace ts::table
