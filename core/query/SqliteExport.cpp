#include "query/SqliteExport.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "query/SqlSchema.h"
#include "query/TraceVtab.h"

namespace ts {
namespace {

// The indexes the example queries of docs/sql.md and the usual joins need;
// created after the rows are in (faster than keeping them up to date).
constexpr const char* kIndexes[] = {
    "CREATE INDEX slices_rows_name ON slices_rows(name_id, dur)",
    "CREATE INDEX slices_rows_lane_ts ON slices_rows(lane, ts)",
    "CREATE INDEX slices_rows_ts ON slices_rows(ts)",
    "CREATE INDEX slices_rows_parent ON slices_rows(parent_id)",
    "CREATE INDEX slices_rows_correlation ON slices_rows(correlation)",
    "CREATE INDEX slices_rows_step ON slices_rows(step)",
    "CREATE INDEX kernels_rows_name ON kernels_rows(name_id, dur)",
    "CREATE INDEX kernels_rows_step ON kernels_rows(step)",
    "CREATE INDEX kernels_rows_correlation ON kernels_rows(correlation)",
    "CREATE INDEX launches_kernel ON launches(kernel_id)",
    "CREATE INDEX launches_runtime ON launches(runtime_id)",
    "CREATE INDEX args_rows_event ON args_rows(event_id)",
    "CREATE INDEX counters_track_ts ON counters(track, ts)",
    "CREATE INDEX memory_ts ON memory(ts)",
};

class Connection {
public:
    explicit Connection(const std::string& path) : path_(path) {
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                            nullptr) != SQLITE_OK)
            fail("cannot create it");
    }
    ~Connection() { sqlite3_close_v2(db_); }
    sqlite3* get() const { return db_; }
    void exec(const std::string& sql) {
        char* message = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
            const std::string text = message ? message : sqlite3_errmsg(db_);
            sqlite3_free(message);
            throw std::runtime_error(path_ + ": " + text + " (in: " + sql.substr(0, 80) + ")");
        }
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw std::runtime_error(path_ + ": " + what + ": " + (db_ ? sqlite3_errmsg(db_) : ""));
    }
    int64_t count(const std::string& table) {
        sqlite3_stmt* stmt = nullptr;
        sqlite3_prepare_v2(db_, ("SELECT count(*) FROM " + table).c_str(), -1, &stmt, nullptr);
        const int64_t n =
            stmt && sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
        sqlite3_finalize(stmt);
        return n;
    }

private:
    std::string path_;
    sqlite3* db_ = nullptr;
};

// How a column of `t` is stored: by id in another table (its SqlTextById),
// or as it is (null).
const SqlTextById* storedById(const SqlTableDef& t, const std::string& column) {
    for (const SqlTextById& b : t.by_id)
        if (column == b.text_column) return &b;
    return nullptr;
}

// The view that gives a table stored by id its columns back, in order.
std::string viewOf(const SqlTableDef& t, const std::string& stored) {
    std::string select, joins;
    for (const SqlColumn& c : t.columns) {
        const SqlTextById* b = storedById(t, c.name);
        const std::string alias = b ? std::string("j_") + c.name : "r";
        select += (select.empty() ? "" : ", ") + alias + "." +
                  (b ? std::string(b->table_text) + " AS " + c.name : std::string(c.name));
        if (b)
            joins += std::string(" LEFT JOIN ") + b->table + " " + alias + " ON " + alias +
                     ".id = r." + b->id_column;
    }
    return "CREATE VIEW " + std::string(t.name) + " AS SELECT " + select + " FROM " + stored +
           " r" + joins;
}

// Tables with texts stored by id (names, args' strings) keep only the ids,
// in <table>_rows, and a view of the table's own name joins the texts back:
// queries run on the file as on the trace.
void exportTable(Connection& db, const SqlTableDef& t) {
    const std::string table = t.by_id.empty() ? t.name : std::string(t.name) + "_rows";
    SqlTableDef stored = t;
    stored.columns.clear();
    std::string kept;
    for (const SqlColumn& c : t.columns) {
        if (storedById(t, c.name)) continue;
        stored.columns.push_back(c);
        kept += (kept.empty() ? "" : ", ") + std::string(c.name);
    }
    if (t.rowid_column >= 0)
        stored.rowid_column = sqlColumnIndex(stored, t.columns[size_t(t.rowid_column)].name);
    db.exec(sqlCreateStatement(stored, table));
    db.exec("INSERT INTO " + table + " SELECT " + kept + " FROM src_" + t.name);
    if (!t.by_id.empty()) db.exec(viewOf(t, table));
}

} // namespace

SqliteExportSummary exportSqlite(const Trace& trace, const std::string& path) {
    namespace fs = std::filesystem;
    const std::string temp = path + ".tmp-" + std::to_string(::getpid());
    std::error_code ec;
    fs::remove(temp, ec);
    SqliteExportSummary summary;
    try {
        TraceVtabContext context(trace);
        Connection db(temp);
        // One writer, no one else: no journal, no syncs until the rename.
        db.exec("PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
                "PRAGMA locking_mode=EXCLUSIVE");
        if (registerTraceTables(db.get(), context, "src_") != SQLITE_OK)
            db.fail("cannot read the trace");
        db.exec("BEGIN");
        for (const SqlTableDef& t : sqlTables())
            if (t.exported) exportTable(db, t);
        for (const char* index : kIndexes)
            db.exec(index);
        db.exec("COMMIT");
        db.exec("ANALYZE");
        db.exec("PRAGMA user_version=" + std::to_string(kSqliteExportVersion));
        for (const SqlTableDef& t : sqlTables())
            if (t.exported) summary.rows.emplace_back(t.name, db.count(t.name));
    } catch (...) {
        fs::remove(temp, ec);
        throw;
    }
    fs::rename(temp, path, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw std::runtime_error(path + ": cannot write it: " + ec.message());
    }
    summary.bytes = int64_t(fs::file_size(path, ec));
    return summary;
}

} // namespace ts
