#include "query/TraceDatabase.h"

#include <algorithm>

#include <sqlite3.h>

#include <cctype>
#include <cstring>
#include <mutex>

#include "query/TraceVtab.h"

namespace ts {
namespace {

// Reads only: a SELECT, the tables' columns, functions (load_extension is
// off at the connection), recursive CTEs, and a few read-only pragmas.
// Everything else (ATTACH, CREATE TEMP, INSERT, transactions, pragma
// writes, VACUUM INTO) is refused.
int authorize(void*, int action, const char* a, const char* b, const char*, const char*) {
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        return b && sqlite3_stricmp(b, "load_extension") == 0 ? SQLITE_DENY : SQLITE_OK;
    case SQLITE_PRAGMA:
        for (const char* allowed : {"table_info", "table_xinfo", "table_list", "function_list"})
            if (a && sqlite3_stricmp(a, allowed) == 0 && !b) return SQLITE_OK;
        return SQLITE_DENY;
    default:
        return SQLITE_DENY;
    }
}

bool onlySpaceOrComments(const char* tail) {
    const char* p = tail;
    while (*p) {
        if (std::isspace(static_cast<unsigned char>(*p)) || *p == ';') {
            ++p;
        } else if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n')
                ++p;
        } else if (p[0] == '/' && p[1] == '*') {
            const char* end = std::strstr(p + 2, "*/");
            if (!end) return true;
            p = end + 2;
        } else {
            return false;
        }
    }
    return true;
}

std::string hintFor(const std::string& message) {
    if (message.find("no such column") == std::string::npos &&
        message.find("no such table") == std::string::npos &&
        message.find("no such function") == std::string::npos)
        return {};
    return "The tables and their columns (SELECT * FROM columns tells what each holds):\n" +
           sqlSchemaSummary();
}

} // namespace

struct TraceDatabase::Impl {
    explicit Impl(const Trace& trace) : context(trace) {}
    TraceVtabContext context;
    sqlite3* db = nullptr;
};

TraceDatabase::TraceDatabase(const Trace& trace) : impl_(std::make_unique<Impl>(trace)) {
    sqlite3* db = nullptr;
    // A private in-memory database: nothing on disk, nothing shared.
    const int rc =
        sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    impl_->db = db;
    if (rc != SQLITE_OK) {
        const std::string message = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        throw SqlError("cannot open SQLite: " + message, -1, {});
    }
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 100'000'000);
    sqlite3_exec(db, "PRAGMA temp_store=MEMORY", nullptr, nullptr, nullptr);
    registerTraceTables(db, impl_->context);
    // Connect every table now: declaring a table's columns parses a CREATE
    // TABLE, which the authorizer would refuse on first use.
    for (const SqlTableDef& t : sqlTables()) {
        sqlite3_stmt* stmt = nullptr;
        sqlite3_prepare_v2(db, ("SELECT * FROM " + std::string(t.name)).c_str(), -1, &stmt,
                           nullptr);
        sqlite3_finalize(stmt);
    }
    sqlite3_set_authorizer(db, authorize, nullptr);
    // A query that runs in SQLite's own loops (a sort, a recursive CTE)
    // checks the cancel every few thousand instructions.
    sqlite3_progress_handler(
        db, 10000,
        [](void* p) -> int {
            return static_cast<TraceVtabContext*>(p)->cancel.load(std::memory_order_relaxed) ? 1
                                                                                             : 0;
        },
        &impl_->context);
}

TraceDatabase::~TraceDatabase() {
    sqlite3_close_v2(impl_->db);
}

void TraceDatabase::cancel() {
    impl_->context.cancel.store(true);
}

SqlError TraceDatabase::error(const std::string& sql) const {
    const std::string message = sqlite3_errmsg(impl_->db);
    const int offset = sql.empty() ? -1 : sqlite3_error_offset(impl_->db);
    // The authorizer's refusal says only "not authorized"; a table without
    // xUpdate "may not be modified".
    if (message == "not authorized" || message.find("may not be modified") != std::string::npos)
        return SqlError("not allowed: a query only reads the trace (no ATTACH, CREATE, INSERT, "
                        "UPDATE, DELETE, transactions or PRAGMA changes)",
                        offset, {});
    SqlError e(message, offset, hintFor(message));
    const int code = sqlite3_errcode(impl_->db);
    if (code == SQLITE_INTERRUPT || message == "interrupted") {
        SqlError c("the query was cancelled", -1, {});
        return c.markCancelled();
    }
    return e;
}

std::unique_ptr<SqlStatement> TraceDatabase::prepare(const std::string& sql) {
    impl_->context.cancel.store(false);
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(impl_->db, sql.c_str(), int(sql.size()), &stmt, &tail) != SQLITE_OK)
        throw error(sql);
    if (!stmt) throw SqlError("the query is empty: write a SELECT", -1, {});
    if (tail && !onlySpaceOrComments(tail)) {
        sqlite3_finalize(stmt);
        throw SqlError("one statement at a time: remove what follows the first ';'",
                       int(tail - sql.c_str()), {});
    }
    if (!sqlite3_stmt_readonly(stmt)) {
        sqlite3_finalize(stmt);
        throw SqlError("not allowed: a query only reads the trace", 0, {});
    }
    return std::unique_ptr<SqlStatement>(new SqlStatement(*this, stmt));
}

SqlStatement::~SqlStatement() {
    sqlite3_finalize(stmt_);
}

int SqlStatement::columns() const {
    return sqlite3_column_count(stmt_);
}

std::string SqlStatement::columnName(int column) const {
    const char* name = sqlite3_column_name(stmt_, column);
    return name ? name : "";
}

bool SqlStatement::next() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw db_.error({});
}

std::vector<std::string> SqlStatement::parameters() const {
    std::vector<std::string> names;
    for (int i = 1; i <= sqlite3_bind_parameter_count(stmt_); ++i)
        if (const char* name = sqlite3_bind_parameter_name(stmt_, i)) names.emplace_back(name);
    return names;
}

bool SqlStatement::bind(const std::string& name, std::optional<int64_t> value) {
    const int index = sqlite3_bind_parameter_index(stmt_, name.c_str());
    if (index == 0) return false;
    const int rc =
        value ? sqlite3_bind_int64(stmt_, index, *value) : sqlite3_bind_null(stmt_, index);
    if (rc != SQLITE_OK) throw db_.error({});
    return true;
}

void bindParameters(SqlStatement& stmt, const SqlParameters& values) {
    for (const std::string& name : stmt.parameters()) {
        const auto found = std::find_if(values.begin(), values.end(),
                                        [&](const auto& v) { return v.first == name; });
        if (found == values.end()) {
            std::string known;
            for (const auto& v : values)
                known += (known.empty() ? "" : ", ") + v.first;
            throw SqlError("the query names the parameter " + name + ", which has no value", -1,
                           (known.empty() ? std::string("no parameter has a value here")
                                          : "the parameters with values are " + known) +
                               " (trace-query: --param NAME=VALUE; the GUI binds :start_ns, "
                               ":end_ns, :step, :rank and :event to the selection)\n");
        }
        stmt.bind(name, found->second);
    }
}

SqlCell SqlStatement::value(int column) const {
    switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER:
        return SqlCell::integer(sqlite3_column_int64(stmt_, column));
    case SQLITE_FLOAT:
        return SqlCell::real(sqlite3_column_double(stmt_, column));
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
        return SqlCell::text(
            std::string_view(text ? text : "", size_t(sqlite3_column_bytes(stmt_, column))));
    }
    default:
        return {};
    }
}

} // namespace ts
