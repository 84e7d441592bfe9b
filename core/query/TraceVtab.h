#pragma once
// SQLite's side of the tables of SqlRows.h: one eponymous-only, read-only
// virtual table module per table, over the trace where it lies. Internal to
// core/query (TraceDatabase and the export register them).
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "query/SqlRows.h"

struct sqlite3;

namespace ts {

// What the modules of one connection share: the rows of every table, the
// lazily built search orders, and the flag that cancels a running query.
class TraceVtabContext {
public:
    explicit TraceVtabContext(const Trace& trace);
    ~TraceVtabContext();
    const SqlRows& rows(SqlTableId id) const { return *rows_[size_t(id)]; }
    const EventOrder& order(SqlTableId id) const; // slices, kernels
    // The id of a name, -1 when the trace has none such.
    int64_t nameId(std::string_view name) const;
    std::atomic<bool> cancel{false};

private:
    SqlTraceContext trace_context_;
    std::vector<std::unique_ptr<SqlRows>> rows_;
    mutable std::vector<std::unique_ptr<EventOrder>> orders_;
    mutable std::vector<std::pair<std::string_view, uint32_t>> names_sorted_;
};

// Registers every table of sqlTables() as a module named prefix + table name.
// `context` must outlive the connection. Returns SQLite's result code.
int registerTraceTables(sqlite3* db, TraceVtabContext& context, const std::string& prefix = "");

} // namespace ts
