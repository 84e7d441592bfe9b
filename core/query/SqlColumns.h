#pragma once
// How a table of SqlRows.h declares itself, beside its rows (internal to
// core/query): its name and meaning, and each column once with its name,
// SQL type, meaning and the getter that reads its cell from a `Row`, the
// table's view of one position (an event, a memory record, a lane...).
// Adding a column is one line of its table's list; SqlSchema.h reads the
// names, types and meanings from the same lists, so the schema, the export,
// `--schema` and the `columns` table cannot drift from the cells.
//
// Conventions of every table: times are nanoseconds from the trace's start
// (trace_info's origin_ns is that start's absolute time); a missing value is
// NULL, never -1, so that avg() and IS NULL mean what they say.
//
// A getter is a plain function pointer (one indirect call per cell, what the
// switch over column numbers cost before): no allocation, no copy.
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "query/SqlRows.h"

namespace ts {

template <class Row> struct SqlColumnOf {
    const char* name;
    const char* type; // INTEGER, REAL or TEXT
    const char* doc;
    SqlCell (*cell)(const Row& row);
};

// What a table says about itself besides its columns.
struct SqlTableDecl {
    SqlTableId id;
    const char* name;
    std::string doc;
    const char* rowid = nullptr; // the rowid column's name, none by default
    bool exported = true;        // written by trace-export --sqlite
    std::vector<SqlTextById> by_id = {};
};

// The schema's entry of a table whose rows are `Rows` (constructed from a
// SqlTraceContext) and whose columns are `columns`.
template <class Rows, class Row, size_t N>
SqlTableDef declareSqlTable(SqlTableDecl decl, const SqlColumnOf<Row> (&columns)[N]) {
    std::vector<SqlColumn> described;
    for (const SqlColumnOf<Row>& c : columns)
        described.push_back({c.name, c.type, c.doc});
    auto rows = [](const SqlTraceContext& c) -> std::unique_ptr<SqlRows> {
        return std::make_unique<Rows>(c);
    };
    SqlTableDef def{decl.id, decl.name,     std::move(decl.doc),   std::move(described),
                    -1,      decl.exported, std::move(decl.by_id), rows};
    if (decl.rowid) {
        def.rowid_column = sqlColumnIndex(def, decl.rowid);
        if (def.rowid_column < 0) throw std::logic_error("declareSqlTable: no rowid column");
    }
    return def;
}

// A lane's cells, the same in slices, kernels and lanes: a thread on CPU
// lanes, a device and a stream on device lanes.
inline SqlCell laneThread(const TraceLane& l) {
    return l.device ? SqlCell{} : SqlCell::integer(l.tid);
}
inline SqlCell laneDevice(const TraceLane& l) {
    return l.device ? SqlCell::id(l.gpu) : SqlCell{};
}
inline SqlCell laneStream(const TraceLane& l) {
    return l.device ? SqlCell::id(l.stream) : SqlCell{};
}

// Each table's entry, declared beside its rows (EventRows.cpp, ArgRows.cpp,
// SideRows.cpp, TextRows.cpp); SqlSchema.cpp lists them in SqlTableId order.
SqlTableDef slicesTable();
SqlTableDef kernelsTable();
SqlTableDef launchesTable();
SqlTableDef countersTable();
SqlTableDef memoryTable();
SqlTableDef stepsTable();
SqlTableDef argsTable();
SqlTableDef namesTable();
SqlTableDef stringsTable();
SqlTableDef lanesTable();
SqlTableDef traceInfoTable();
SqlTableDef tablesTable();
SqlTableDef columnsTable();

} // namespace ts
