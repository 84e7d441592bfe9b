#include "query/SqlSchema.h"

#include <stdexcept>

#include "query/SqlColumns.h"

namespace ts {
namespace {

// Each table is declared beside its rows (SqlColumns.h); the schema lists
// them in SqlTableId order, which TraceVtabContext::rows() indexes by.
std::vector<SqlTableDef> makeTables() {
    std::vector<SqlTableDef> t;
    for (SqlTableDef (*table)() : {slicesTable, kernelsTable, launchesTable, countersTable,
                                   memoryTable, stepsTable, argsTable, namesTable, stringsTable,
                                   lanesTable, traceInfoTable, tablesTable, columnsTable})
        t.push_back(table());
    for (size_t i = 0; i < t.size(); ++i)
        if (size_t(t[i].id) != i) throw std::logic_error("sqlTables: not in SqlTableId order");
    return t;
}

} // namespace

const std::vector<SqlTableDef>& sqlTables() {
    static const std::vector<SqlTableDef> tables = makeTables();
    return tables;
}

const SqlTableDef& sqlTable(SqlTableId id) {
    return sqlTables().at(size_t(id));
}

const SqlTableDef* findSqlTable(std::string_view name) {
    for (const SqlTableDef& t : sqlTables())
        if (name == t.name) return &t;
    return nullptr;
}

int sqlColumnIndex(const SqlTableDef& table, std::string_view column) {
    for (size_t i = 0; i < table.columns.size(); ++i)
        if (column == table.columns[i].name) return int(i);
    return -1;
}

std::string sqlCreateStatement(const SqlTableDef& table, const std::string& name) {
    std::string out = "CREATE TABLE " + name + "(";
    for (size_t i = 0; i < table.columns.size(); ++i) {
        if (i) out += ", ";
        out += std::string(table.columns[i].name) + ' ' + table.columns[i].type;
        if (int(i) == table.rowid_column) out += " PRIMARY KEY";
    }
    return out + ")";
}

std::string sqlSchemaSummary() {
    std::string out;
    for (const SqlTableDef& t : sqlTables()) {
        out += std::string(t.name) + '(';
        for (size_t i = 0; i < t.columns.size(); ++i)
            out += (i ? ", " : "") + std::string(t.columns[i].name);
        out += ")\n";
    }
    return out;
}

} // namespace ts
