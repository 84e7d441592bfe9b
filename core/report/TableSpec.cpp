#include "report/TableSpec.h"

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

nlohmann::json rowsJson(const TableSpec& table) {
    nlohmann::json rows = nlohmann::json::array();
    for (const std::vector<Cell>& row : table.rows) {
        nlohmann::json j = nlohmann::json::object();
        for (size_t c = 0; c < table.columns.size() && c < row.size(); ++c) {
            const Column& column = table.columns[c];
            const Cell& cell = row[c];
            j[column.key] =
                table.json_numbers ? cellJson(column.kind, cell) : nlohmann::json(cell.text);
        }
        rows.push_back(std::move(j));
    }
    return rows;
}

} // namespace ts::table
