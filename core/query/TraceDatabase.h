#pragma once
// SQL over one trace: an SQLite connection whose tables (SqlSchema.h) read
// the trace where it lies. Read-only and closed to the outside: no ATTACH,
// no extension loading, no CREATE, INSERT, PRAGMA writes or transactions
// (an authorizer allows reads only). A query can be cancelled from any
// thread; its rows stream (nothing is held but what SQLite sorts).
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "query/SqlRows.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ts {

// SQLite's message, where in the query it points (a byte offset, -1
// unknown) and a hint (the tables and columns, for an unknown one).
class SqlError : public std::runtime_error {
public:
    SqlError(const std::string& message, int offset, std::string hint)
        : std::runtime_error(message), offset_(offset), hint_(std::move(hint)) {}
    int offset() const { return offset_; }
    const std::string& hint() const { return hint_; }
    bool cancelled() const { return cancelled_; }
    SqlError& markCancelled() { return cancelled_ = true, *this; }

private:
    int offset_;
    std::string hint_;
    bool cancelled_ = false;
};

class TraceDatabase;

// One prepared query; its rows come one at a time.
class SqlStatement {
public:
    ~SqlStatement();
    SqlStatement(const SqlStatement&) = delete;
    SqlStatement& operator=(const SqlStatement&) = delete;
    int columns() const;
    std::string columnName(int column) const;
    // The next row; false after the last. Throws SqlError.
    bool next();
    // A cell of the current row (Text stays valid until the next call).
    SqlCell value(int column) const;
    // The statement's named parameters (":start_ns"), in order.
    std::vector<std::string> parameters() const;
    // Binds `name` (":step") to `value` (nullopt: NULL) before the first
    // next(); false when the statement has no such parameter.
    bool bind(const std::string& name, std::optional<int64_t> value);

private:
    friend class TraceDatabase;
    SqlStatement(TraceDatabase& db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
    TraceDatabase& db_;
    sqlite3_stmt* stmt_;
};

// Values for a query's named parameters (":start_ns" -> 1200); nullopt binds NULL.
using SqlParameters = std::vector<std::pair<std::string, std::optional<int64_t>>>;
// Binds every parameter `stmt` names from `values`; throws SqlError naming a
// parameter `values` lacks and the ones there are.
void bindParameters(SqlStatement& stmt, const SqlParameters& values);

class TraceDatabase {
public:
    // The trace must outlive the database and not change while it is open.
    explicit TraceDatabase(const Trace& trace);
    ~TraceDatabase();
    TraceDatabase(const TraceDatabase&) = delete;
    TraceDatabase& operator=(const TraceDatabase&) = delete;

    // One statement (a trailing ';' and comments are fine). Throws SqlError.
    std::unique_ptr<SqlStatement> prepare(const std::string& sql);
    // From any thread: the running query stops with an SqlError that says
    // it was cancelled. The next prepare() clears the request.
    void cancel();

private:
    friend class SqlStatement;
    SqlError error(const std::string& sql_or_empty) const;

    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ts
