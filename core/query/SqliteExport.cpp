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
    "CREATE INDEX args_event ON args(event_id)",
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

std::string columnList(const SqlTableDef& t, bool with_name, const std::string& prefix = "") {
    std::string out;
    for (const SqlColumn& c : t.columns) {
        if (!with_name && std::string(c.name) == "name") continue;
        out += (out.empty() ? "" : ", ") + prefix + c.name;
    }
    return out;
}

// Tables with a name column keep only its id; a view of the table's own
// name joins the text back, in the columns' order.
void exportTable(Connection& db, const SqlTableDef& t) {
    const bool named = sqlColumnIndex(t, "name_id") >= 0;
    const std::string table = named ? std::string(t.name) + "_rows" : t.name;
    SqlTableDef stored = t;
    if (named) stored.columns.erase(stored.columns.begin() + sqlColumnIndex(t, "name"));
    db.exec(sqlCreateStatement(stored, table));
    db.exec("INSERT INTO " + table + " SELECT " + columnList(t, !named) + " FROM src_" + t.name);
    if (!named) return;
    std::string select;
    for (const SqlColumn& c : t.columns)
        select += std::string(select.empty() ? "" : ", ") +
                  (std::string(c.name) == "name" ? "n.name AS name" : "r." + std::string(c.name));
    db.exec("CREATE VIEW " + std::string(t.name) + " AS SELECT " + select + " FROM " + table +
            " r LEFT JOIN names n ON n.id = r.name_id");
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
        // names first: the views of slices and kernels join it.
        exportTable(db, sqlTable(SqlTableId::Names));
        for (const SqlTableDef& t : sqlTables())
            if (t.exported && t.id != SqlTableId::Names) exportTable(db, t);
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
