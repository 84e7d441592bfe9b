#pragma once
// The tables `trace-query`, the GUI's Query tab and `trace-export --sqlite`
// offer, as their rows declare them (each table beside its rows, each column
// once with the getter of its cells: SqlColumns.h): the virtual tables
// declare themselves from it, the export creates its tables from it, the
// `columns` table and the hint after an unknown column list it, and
// docs/sql.md is checked against it.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

class SqlRows;
class SqlTraceContext;

enum class SqlTableId {
    Slices,
    Kernels,
    Launches,
    Counters,
    Memory,
    Steps,
    Args,
    Names,
    Strings,
    Lanes,
    TraceInfo,
    Tables,
    Columns
};

struct SqlColumn {
    const char* name;
    const char* type; // INTEGER, REAL or TEXT
    const char* doc;
};

// A text column that the export stores once, in another table: the file
// keeps `id_column` and a view joins the text back from `table`(id, text).
struct SqlTextById {
    const char* text_column;
    const char* id_column;
    const char* table;
    const char* table_text; // the text's column in `table`
};

struct SqlTableDef {
    SqlTableId id;
    const char* name;
    std::string doc;
    std::vector<SqlColumn> columns;
    // The column that is the table's rowid ("id" of slices), -1 none.
    int rowid_column = -1;
    bool exported = true; // written by trace-export --sqlite
    std::vector<SqlTextById> by_id;
    // Its rows over a trace (SqlRows.h).
    std::unique_ptr<SqlRows> (*rows)(const SqlTraceContext&) = nullptr;
};

// In SqlTableId order.
const std::vector<SqlTableDef>& sqlTables();
const SqlTableDef& sqlTable(SqlTableId id);
const SqlTableDef* findSqlTable(std::string_view name);
// Column index by name, -1 none.
int sqlColumnIndex(const SqlTableDef& table, std::string_view column);
// "CREATE TABLE x(id INTEGER, ...)" with the table's columns.
std::string sqlCreateStatement(const SqlTableDef& table, const std::string& name);
// One line per table: "slices(id, ts, dur, ...)".
std::string sqlSchemaSummary();

} // namespace ts
