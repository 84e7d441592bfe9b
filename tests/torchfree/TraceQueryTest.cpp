// SQL over a trace (core/query): the virtual tables against the trace they
// read, the module's narrowing against SQLite's own filtering, the guard
// that keeps queries read-only, cancellation, errors, the export, and every
// example query of docs/sql.md on the trace and on its exported file.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "TestPaths.h"
#include "analysis/LaunchIndex.h"
#include "analysis/OpMemory.h"
#include "inspect/TraceQueryCommand.h"
#include "query/ExampleQueries.h"
#include "query/SqliteExport.h"
#include "query/TraceDatabase.h"
#include "trace/ChromeTraceReader.h"
#include "trace/RankTimeline.h"

namespace ts {
namespace {

const std::string kData = TRAINSCOPE_TEST_DATA_DIR;
const std::string kGpt = kData + "/h100/gpt_decoder_bf16.pt.trace.json.gz";

const Trace& gptTrace() {
    static const Trace trace = readChromeTraceFile(kGpt);
    return trace;
}

std::string cellString(const SqlCell& c) {
    switch (c.type) {
    case SqlCell::Int:
        return std::to_string(c.i);
    case SqlCell::Real: {
        std::ostringstream s;
        s.precision(12);
        s << c.d;
        return s.str();
    }
    case SqlCell::Text:
        return "'" + std::string(c.s) + "'";
    default:
        return "NULL";
    }
}

using Rows = std::vector<std::string>; // one line per row

Rows run(TraceDatabase& db, const std::string& sql) {
    Rows rows;
    auto stmt = db.prepare(sql);
    while (stmt->next()) {
        std::string line;
        for (int c = 0; c < stmt->columns(); ++c)
            line += cellString(stmt->value(c)) + "|";
        rows.push_back(line);
    }
    return rows;
}

Rows run(sqlite3* db, const std::string& sql) {
    Rows rows;
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db) << "\n"
        << sql;
    while (stmt && sqlite3_step(stmt) == SQLITE_ROW) {
        std::string line;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
            SqlCell cell;
            switch (sqlite3_column_type(stmt, c)) {
            case SQLITE_INTEGER:
                cell = SqlCell::integer(sqlite3_column_int64(stmt, c));
                break;
            case SQLITE_FLOAT:
                cell = SqlCell::real(sqlite3_column_double(stmt, c));
                break;
            case SQLITE_TEXT:
                cell = SqlCell::text(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)));
                break;
            }
            line += cellString(cell) + "|";
        }
        rows.push_back(line);
    }
    sqlite3_finalize(stmt);
    return rows;
}

// On a difference, the row counts and the first differing row (kernel
// names run to kilobytes).
void expectSameRows(const Rows& a, const Rows& b, const std::string& what) {
    if (a == b) return;
    size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i])
        ++i;
    auto row = [](const Rows& r, size_t k) {
        return k < r.size() ? r[k].substr(0, 200) : "(none)";
    };
    ADD_FAILURE() << what << "\n"
                  << a.size() << " rows against " << b.size() << "; row " << i << ":\n  "
                  << row(a, i) << "\n  " << row(b, i);
}

int64_t single(TraceDatabase& db, const std::string& sql) {
    auto stmt = db.prepare(sql);
    EXPECT_TRUE(stmt->next()) << sql;
    return stmt->value(0).i;
}

TEST(TraceQuery, TablesHoldWhatTheTraceHolds) {
    const Trace& t = gptTrace();
    TraceDatabase db(t);
    EXPECT_EQ(single(db, "SELECT count(*) FROM slices"), int64_t(t.events.size()));
    EXPECT_EQ(single(db, "SELECT count(*) FROM names"), int64_t(t.names.size()));
    EXPECT_EQ(single(db, "SELECT count(*) FROM lanes"), int64_t(t.lanes.size()));
    EXPECT_EQ(single(db, "SELECT sum(events) FROM lanes"), int64_t(t.events.size()));
    EXPECT_EQ(single(db, "SELECT count(*) FROM steps"), int64_t(t.steps.size()));
    EXPECT_EQ(single(db, "SELECT count(*) FROM launches"), int64_t(LaunchIndex::build(t).size()));
    EXPECT_EQ(single(db, "SELECT count(*) FROM memory"), int64_t(t.kineto.memory.size()));
    // Every kernel is a slice of a device lane; every launch's kernel is a kernel.
    EXPECT_EQ(single(db, "SELECT count(*) FROM kernels k JOIN slices s ON s.id = k.id "
                         "JOIN lanes l ON l.id = s.lane WHERE l.is_device = 1"),
              single(db, "SELECT count(*) FROM kernels"));
    EXPECT_GT(single(db, "SELECT count(*) FROM kernels"), 1000);
    EXPECT_EQ(single(db, "SELECT count(*) FROM launches l LEFT JOIN kernels k ON k.id = "
                         "l.kernel_id WHERE k.id IS NULL"),
              0);
    EXPECT_EQ(single(db, "SELECT count(*) FROM kernels WHERE runtime_id IS NOT NULL"),
              single(db, "SELECT count(*) FROM launches"));
    // Launches link by correlation: the runtime call and its kernel share it.
    EXPECT_EQ(single(db, "SELECT count(*) FROM launches l JOIN slices r ON r.id = l.runtime_id "
                         "WHERE r.correlation IS NOT l.correlation"),
              0);
    // Parents are on the same lane and enclose their children.
    EXPECT_EQ(single(db, "SELECT count(*) FROM slices c JOIN slices p ON p.id = c.parent_id "
                         "WHERE p.lane != c.lane OR c.ts < p.ts OR c.depth != p.depth + 1"),
              0);
    // Cells are the trace's, event by event.
    for (size_t i : {size_t(0), t.events.size() / 2, t.events.size() - 1}) {
        const TraceEvent e = t.events[i];
        auto stmt = db.prepare("SELECT ts, dur, name, lane, depth FROM slices WHERE id = " +
                               std::to_string(i));
        ASSERT_TRUE(stmt->next());
        EXPECT_EQ(stmt->value(0).i, e.start_ns);
        EXPECT_EQ(stmt->value(1).i, e.dur_ns);
        EXPECT_EQ(stmt->value(2).s, t.nameOf(e));
        EXPECT_EQ(stmt->value(3).i, e.lane);
        EXPECT_EQ(stmt->value(4).i, e.depth);
        EXPECT_FALSE(stmt->next());
    }
}

TEST(TraceQuery, GroupByNameEqualsACountOverTheTraceWithoutASort) {
    const Trace& t = gptTrace();
    std::map<std::string, std::pair<int64_t, int64_t>> expected;
    for (size_t i = 0; i < t.events.size(); ++i) {
        auto& [n, sum] = expected[t.names[t.events.core(i).name]];
        ++n;
        sum += t.events.core(i).dur_ns;
    }
    TraceDatabase db(t);
    const std::string sql = "SELECT name, count(*), sum(dur) FROM slices GROUP BY name";
    auto stmt = db.prepare(sql);
    size_t groups = 0;
    std::string previous;
    while (stmt->next()) {
        const std::string name(stmt->value(0).s);
        EXPECT_LT(previous, name); // one group per name, in byte order
        previous = name;
        ASSERT_TRUE(expected.count(name)) << name;
        EXPECT_EQ(stmt->value(1).i, expected[name].first) << name;
        EXPECT_EQ(stmt->value(2).i, expected[name].second) << name;
        ++groups;
    }
    EXPECT_EQ(groups, expected.size());
    // Read in name order: no temporary B-tree, with or without an ORDER BY
    // of the result (SQLite then asks for a descending GROUP BY).
    for (const std::string& q :
         {sql, sql + " ORDER BY 3 DESC LIMIT 5",
          std::string("SELECT name_id, count(*) FROM kernels GROUP BY name_id")}) {
        std::string plan;
        for (const std::string& row : run(db, "EXPLAIN QUERY PLAN " + q))
            plan += row;
        EXPECT_EQ(plan.find("B-TREE FOR GROUP BY"), std::string::npos) << q << "\n" << plan;
        EXPECT_NE(plan.find("INDEX 128"), std::string::npos) << plan;
    }
}

// The module narrows what it reads; SQLite filters with +column (which no
// module sees). The two must return the same rows, whatever the value's type.
TEST(TraceQuery, NarrowedReadsReturnWhatAFullScanReturns) {
    const Trace& t = gptTrace();
    TraceDatabase db(t);
    const int64_t mid = t.events.core(t.events.size() / 2).start_ns;
    const std::string m = std::to_string(mid), m2 = std::to_string(mid + 2'000'000);
    const std::string kernel_name =
        t.names[t.events.core(size_t(single(db, "SELECT min(id) FROM kernels"))).name];
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"lane = 1", "+lane = 1"},
        {"lane = 1.0", "+lane = 1.0"},
        {"lane = 1.5", "+lane = 1.5"},
        // Text that reads as a number compares as one (the column's INTEGER
        // affinity, as in the exported file); +lane has no affinity.
        {"lane = '1'", "+lane = 1"},
        {"lane = NULL", "+lane = NULL"},
        {"lane IN (0, 2, 3)", "+lane IN (0, 2, 3)"},
        {"ts >= " + m, "+ts >= " + m},
        {"ts > " + m + " AND ts <= " + m2, "+ts > " + m + " AND +ts <= " + m2},
        {"ts > " + m + ".5 AND ts < " + m2 + ".5", "+ts > " + m + ".5 AND +ts < " + m2 + ".5"},
        {"ts < 'abc'", "+ts < 'abc'"},
        {"ts > 'abc'", "+ts > 'abc'"},
        {"end_ts > " + m + " AND ts < " + m2, "+end_ts > " + m + " AND +ts < " + m2},
        {"end_ts >= " + m + " AND lane = 0", "+end_ts >= " + m + " AND +lane = 0"},
        {"name = 'aten::mm'", "+name = 'aten::mm'"},
        {"name = 'ATEN::MM' COLLATE NOCASE", "+name = 'ATEN::MM' COLLATE NOCASE"},
        {"name = 'no such name'", "+name = 'no such name'"},
        {"name IN ('aten::mm', 'aten::add')", "+name IN ('aten::mm', 'aten::add')"},
        {"name_id = 5", "+name_id = 5"},
        {"name_id = 5 AND name = 'aten::mm'", "+name_id = 5 AND +name = 'aten::mm'"},
        {"name = 'aten::mm' AND ts > " + m, "+name = 'aten::mm' AND +ts > " + m},
        {"id = 7", "+id = 7"},
        {"id IN (7, 9, 100000000, -1)", "+id IN (7, 9, 100000000, -1)"},
        {"rowid = 42", "+rowid = 42"},
    };
    for (const std::string table : {"slices", "kernels"}) {
        for (const auto& [narrowed, scanned] : cases) {
            const std::string q = "SELECT id FROM " + table + " WHERE ";
            const Rows a = run(db, q + narrowed + " ORDER BY id"),
                       b = run(db, q + scanned + " ORDER BY id");
            expectSameRows(a, b, table + " WHERE " + narrowed);
        }
        const std::string k =
            "SELECT count(*) FROM " + table + " WHERE name = '" + kernel_name + "'";
        EXPECT_EQ(run(db, k), run(db, "SELECT count(*) FROM " + table + " WHERE +name = '" +
                                          kernel_name + "'"));
    }
    // ORDER BY name comes in byte order; DESC is SQLite's to sort.
    EXPECT_EQ(run(db, "SELECT name FROM slices ORDER BY name"),
              run(db, "SELECT name FROM slices ORDER BY +name"));
    EXPECT_EQ(run(db, "SELECT name FROM kernels ORDER BY name DESC"),
              run(db, "SELECT name FROM kernels ORDER BY +name DESC"));
    EXPECT_EQ(run(db, "SELECT id FROM slices ORDER BY name COLLATE NOCASE, id"),
              run(db, "SELECT id FROM slices ORDER BY +name COLLATE NOCASE, id"));
    // args by event: the event's fields only.
    EXPECT_EQ(run(db, "SELECT * FROM args WHERE event_id = 3"),
              run(db, "SELECT * FROM args WHERE +event_id = 3"));
    EXPECT_GT(single(db, "SELECT count(*) FROM args WHERE key = 'shapes'"), 100);
}

TEST(TraceQuery, QueriesOnlyRead) {
    TraceDatabase db(gptTrace());
    const std::string refused[] = {
        "ATTACH DATABASE '/tmp/trainscope-attack.db' AS x",
        "CREATE TEMP TABLE t(x)",
        "CREATE TABLE t(x)",
        "CREATE VIRTUAL TABLE t USING slices",
        "INSERT INTO slices(id) VALUES (1)",
        "DELETE FROM slices",
        "UPDATE names SET name = 'x'",
        "PRAGMA writable_schema = 1",
        "PRAGMA temp_store_directory = '/tmp'",
        "BEGIN",
        "VACUUM INTO '/tmp/trainscope-attack.db'",
        "SELECT load_extension('/tmp/libattack.so')",
        "SELECT 1; DROP TABLE names",
        "DETACH DATABASE main",
    };
    for (const std::string& sql : refused) {
        EXPECT_THROW(run(db, sql), SqlError) << sql;
    }
    EXPECT_FALSE(std::filesystem::exists("/tmp/trainscope-attack.db"));
    // Still usable after the refusals.
    EXPECT_EQ(single(db, "SELECT count(*) FROM slices"), int64_t(gptTrace().events.size()));
    EXPECT_EQ(single(db,
                     "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) "
                     "SELECT sum(i) FROM n"),
              55);
}

TEST(TraceQuery, ErrorsSayWhatAndWhere) {
    TraceDatabase db(gptTrace());
    try {
        db.prepare("SELECT nme FROM slices");
        FAIL();
    } catch (const SqlError& e) {
        EXPECT_STREQ(e.what(), "no such column: nme");
        EXPECT_EQ(e.offset(), 7);
        EXPECT_NE(e.hint().find("slices(id, ts, dur, end_ts, name,"), std::string::npos);
    }
    try {
        db.prepare("SELEC 1");
        FAIL();
    } catch (const SqlError& e) {
        EXPECT_NE(std::string(e.what()).find("syntax error"), std::string::npos);
        EXPECT_EQ(e.offset(), 0);
        EXPECT_TRUE(e.hint().empty());
    }
    EXPECT_THROW(db.prepare("   -- nothing\n"), SqlError);
    EXPECT_NO_THROW(db.prepare("SELECT 1; -- a comment\n"));
}

TEST(TraceQuery, ALongQueryStopsWhenCancelled) {
    TraceDatabase db(gptTrace());
    // A cross join of the trace with itself: hours, unless cancelled.
    auto stmt = db.prepare("SELECT count(*) FROM slices a, slices b WHERE a.dur + b.dur = -1");
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        db.cancel();
    });
    try {
        stmt->next();
        ADD_FAILURE() << "the query ended without being cancelled";
    } catch (const SqlError& e) {
        EXPECT_TRUE(e.cancelled()) << e.what();
    }
    canceller.join();
    // The next query runs.
    EXPECT_EQ(single(db, "SELECT count(*) FROM steps"), int64_t(gptTrace().steps.size()));
}

TEST(TraceQuery, MemoryRecordsBelongToTheEventOpenOnTheirThread) {
    const Trace t = readChromeTraceFile(kData + "/torch_profiler_sample.json");
    TraceDatabase db(t);
    ASSERT_FALSE(t.kineto.memory.empty());
    EXPECT_EQ(single(db, "SELECT count(*) FROM memory"), int64_t(t.kineto.memory.size()));
    const std::vector<OpMemory> expected = opMemory(t);
    auto stmt = db.prepare("SELECT event_id, sum(bytes) FROM memory WHERE bytes > 0 AND "
                           "event_id IS NOT NULL GROUP BY event_id");
    size_t events = 0;
    while (stmt->next()) {
        const size_t e = size_t(stmt->value(0).i);
        // The innermost event gets it (opMemory's attribution, by the same rule).
        EXPECT_EQ(stmt->value(1).i, expected[e].alloc_bytes) << e;
        ++events;
    }
    EXPECT_GT(events, 10u);
    EXPECT_EQ(single(db, "SELECT count(*) FROM counters WHERE track = 'cpu_allocated'"),
              int64_t(t.kineto.memory.size()));
}

TEST(TraceQuery, RanksOfADistributedProfile) {
    std::vector<RankTrace> ranks;
    for (int i = 0; i < 2; ++i) {
        RankTrace r;
        r.rank = i;
        r.path = kData + "/tb_plugin/test_distributed_nccl_" + std::to_string(i) + ".json";
        r.trace = readChromeTraceFile(r.path);
        ranks.push_back(std::move(r));
    }
    const Trace merged = mergeRankTraces(ranks);
    TraceDatabase db(merged);
    EXPECT_EQ(run(db, "SELECT DISTINCT rank FROM lanes ORDER BY rank"), (Rows{"0|", "1|"}));
    EXPECT_EQ(single(db, "SELECT count(*) FROM slices WHERE rank IS NULL"), 0);
    EXPECT_GT(single(db, "SELECT count(DISTINCT rank) FROM kernels WHERE kind = 'communication'"),
              1);
}

TEST(TraceQuery, DocsShowEveryExampleQuery) {
    std::ifstream in(kData + "/../../docs/sql.md");
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    ASSERT_GE(exampleQueries().size(), 12u);
    for (const ExampleQuery& q : exampleQueries()) {
        EXPECT_NE(doc.find(std::string(q.question) + "\n\n```sql\n" + q.sql + "\n```"),
                  std::string::npos)
            << q.question;
    }
}

TEST(TraceQuery, ExportHoldsTheSameTablesAndEveryDocQueryAgrees) {
    const auto dir = std::filesystem::temp_directory_path() / "trainscope-query-test";
    std::filesystem::create_directories(dir);
    for (const std::string& file : {kGpt, kData + "/torch_profiler_sample.json",
                                    kData + "/hta/critical_path_alexnet.json.gz"}) {
        const Trace t = readChromeTraceFile(file);
        const std::string path = (dir / "out.db").string();
        const SqliteExportSummary summary = exportSqlite(t, path);
        EXPECT_GT(summary.bytes, 0);
        EXPECT_FALSE(std::filesystem::exists(path + ".tmp-" + std::to_string(::getpid())));
        sqlite3* file_db = nullptr;
        ASSERT_EQ(sqlite3_open_v2(path.c_str(), &file_db, SQLITE_OPEN_READONLY, nullptr),
                  SQLITE_OK);
        TraceDatabase db(t);
        EXPECT_EQ(run(file_db, "PRAGMA user_version"), (Rows{"1|"}));
        EXPECT_GE(run(file_db, "SELECT name FROM sqlite_master WHERE type = 'index'").size(), 14u);
        for (const SqlTableDef& table : sqlTables()) {
            if (!table.exported) continue;
            const std::string all = std::string("SELECT * FROM ") + table.name;
            expectSameRows(run(db, all), run(file_db, all), file + ": " + table.name);
        }
        size_t answered = 0;
        for (const ExampleQuery& example : exampleQueries()) {
            const std::string q = example.sql;
            const Rows a = run(db, q);
            expectSameRows(a, run(file_db, q), file + ":\n" + q);
            answered += !a.empty();
        }
        if (file == kGpt) EXPECT_GE(answered, 10u) << "most questions have answers on a GPU trace";
        sqlite3_close(file_db);
    }
    std::filesystem::remove_all(dir);
}

TEST(TraceQuery, AFailedExportLeavesNoFile) {
    const Trace& t = gptTrace();
    EXPECT_THROW(exportSqlite(t, "/nonexistent-dir/out.db"), std::runtime_error);
    const auto dir = std::filesystem::temp_directory_path() / "trainscope-query-test-2";
    std::filesystem::create_directories(dir);
    // An existing file is replaced whole.
    const std::string path = (dir / "out.db").string();
    std::ofstream(path) << "not a database";
    exportSqlite(t, path);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    EXPECT_EQ(run(db, "SELECT count(*) FROM slices"),
              (Rows{std::to_string(t.events.size()) + "|"}));
    sqlite3_close(db);
    std::filesystem::remove_all(dir);
}

TEST(TraceQuery, CommandStreamsRowsAndExitsTwoOnABadQuery) {
    TraceQueryOptions o;
    o.file = kGpt;
    o.cache = false;
    o.sql = "SELECT id, name FROM slices WHERE name = 'aten::mm' ORDER BY id";
    o.format = "csv";
    std::ostringstream out, err;
    ASSERT_EQ(runTraceQuery(o, out, err), 0) << err.str();
    const std::string csv = out.str();
    EXPECT_EQ(csv.rfind("id,name\n", 0), 0u);
    EXPECT_NE(csv.find(",aten::mm\n"), std::string::npos);
    o.format = "json";
    o.max_rows = 2;
    out.str("");
    ASSERT_EQ(runTraceQuery(o, out, err), 0);
    const nlohmann::json j = nlohmann::json::parse(out.str());
    ASSERT_EQ(j.size(), 2u);
    EXPECT_EQ(j[0]["name"], "aten::mm");
    o.sql = "SELECT nme FROM slices";
    out.str("");
    err.str("");
    EXPECT_EQ(runTraceQuery(o, out, err), 2);
    EXPECT_NE(err.str().find("no such column: nme\n  SELECT nme FROM slices\n         ^\n"),
              std::string::npos)
        << err.str();
    EXPECT_NE(err.str().find("kernels(id,"), std::string::npos);
    o.format = "xml";
    EXPECT_EQ(runTraceQuery(o, out, err), 2);
    o.format = "text";
    o.file = "/nonexistent/trace.json";
    o.sql = "SELECT 1";
    err.str("");
    EXPECT_EQ(runTraceQuery(o, out, err), 2);
    EXPECT_NE(err.str().find("/nonexistent/trace.json"), std::string::npos);
}

} // namespace
} // namespace ts
