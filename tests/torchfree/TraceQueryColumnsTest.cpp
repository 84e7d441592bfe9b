// The SQL tables' columns are declared once each, beside the getter of their
// cells (core/query/SqlColumns.h). Every cell of every declared column has
// the declared type or is NULL, on real traces; and every list of the
// columns (the virtual tables, the `columns` and `tables` tables, the hint's
// summary, the exported file, docs/sql.md) is the declarations'.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <unistd.h>

#include "TestPaths.h"
#include "query/SqlRows.h"
#include "query/SqliteExport.h"
#include "query/TraceDatabase.h"
#include "trace/ChromeTraceReader.h"
#include "trace/RankFolder.h"
#include "trace/RankTimeline.h"

namespace ts {
namespace {

const std::string kData = TRAINSCOPE_TEST_DATA_DIR;

SqlCell::Type cellTypeOf(const std::string& sql_type) {
    if (sql_type == "INTEGER") return SqlCell::Int;
    if (sql_type == "REAL") return SqlCell::Real;
    if (sql_type == "TEXT") return SqlCell::Text;
    ADD_FAILURE() << "not a type of the schema: " << sql_type;
    return SqlCell::Null;
}

std::vector<std::string> declaredNames(const SqlTableDef& t) {
    std::vector<std::string> names;
    for (const SqlColumn& c : t.columns)
        names.push_back(c.name);
    return names;
}

// A GPU trace, a CPU trace with memory records, one with sync waits and
// call stacks (HTA's), and two ranks as one timeline (the rank columns).
std::vector<std::pair<std::string, Trace>> sampleTraces() {
    std::vector<std::pair<std::string, Trace>> out;
    for (const std::string& file :
         {kData + "/h100/gpt_decoder_bf16.pt.trace.json.gz", kData + "/torch_profiler_sample.json",
          kData + "/hta/critical_path_alexnet.json.gz"})
        out.emplace_back(file, readChromeTraceFile(file));
    const std::vector<RankSpan> spans = findRankSpans({kData + "/distributed_hta"});
    out.emplace_back("the ranks of distributed_hta", mergeRankTraces(readRankSpan(spans.at(0))));
    return out;
}

TEST(TraceQueryColumns, EveryCellHasItsDeclaredTypeOrIsNull) {
    std::map<std::string, size_t> filled; // "table.column" -> cells with a value
    for (const auto& [what, trace] : sampleTraces()) {
        const SqlTraceContext context(trace);
        const std::vector<std::unique_ptr<SqlRows>> tables = makeSqlRows(context);
        ASSERT_EQ(tables.size(), sqlTables().size());
        for (size_t i = 0; i < tables.size(); ++i) {
            const SqlRows& rows = *tables[i];
            const SqlTableDef& def = sqlTables()[i];
            ASSERT_EQ(&rows.def(), &def) << def.name;
            size_t wrong = 0;
            for (size_t pos = 0; pos < rows.size(); ++pos) {
                if (!rows.present(pos)) continue;
                for (size_t c = 0; c < def.columns.size(); ++c) {
                    const SqlCell cell = rows.cell(pos, int(c));
                    if (cell.type == SqlCell::Null) continue;
                    const std::string column = std::string(def.name) + "." + def.columns[c].name;
                    ++filled[column];
                    if (cell.type != cellTypeOf(def.columns[c].type) && ++wrong <= 3)
                        ADD_FAILURE() << what << ": " << column << " at " << pos << " is not "
                                      << def.columns[c].type;
                }
            }
        }
    }
    // Each getter reads something: every column has a value in one of them.
    for (const SqlTableDef& t : sqlTables())
        for (const SqlColumn& c : t.columns) {
            const std::string column = std::string(t.name) + "." + c.name;
            EXPECT_GT(filled[column], 0u) << column;
        }
}

std::vector<std::string> columnNamesOf(TraceDatabase& db, const std::string& table) {
    auto stmt = db.prepare("SELECT * FROM " + table);
    std::vector<std::string> names;
    for (int c = 0; c < stmt->columns(); ++c)
        names.push_back(stmt->columnName(c));
    return names;
}

std::vector<std::string> rowsOf(TraceDatabase& db, const std::string& sql) {
    std::vector<std::string> rows;
    auto stmt = db.prepare(sql);
    while (stmt->next()) {
        std::string line;
        for (int c = 0; c < stmt->columns(); ++c)
            line += std::string(stmt->value(c).s) + "|";
        rows.push_back(line);
    }
    return rows;
}

TEST(TraceQueryColumns, TheTablesDeclareTheirColumnsAndTheSchemaListsThem) {
    const Trace trace = readChromeTraceFile(kData + "/torch_profiler_sample.json");
    TraceDatabase db(trace);
    std::vector<std::string> columns, tables;
    std::string summary;
    for (const SqlTableDef& t : sqlTables()) {
        EXPECT_EQ(columnNamesOf(db, t.name), declaredNames(t)) << t.name;
        tables.push_back(std::string(t.name) + "|" + t.doc + "|");
        for (const SqlColumn& c : t.columns)
            columns.push_back(std::string(t.name) + "|" + c.name + "|" + c.type + "|" + c.doc +
                              "|");
        std::string list;
        for (const std::string& name : declaredNames(t))
            list += (list.empty() ? "" : ", ") + name;
        summary += std::string(t.name) + "(" + list + ")\n";
    }
    EXPECT_EQ(rowsOf(db, "SELECT table_name, name, type, doc FROM columns"), columns);
    EXPECT_EQ(rowsOf(db, "SELECT name, doc FROM tables"), tables);
    EXPECT_EQ(sqlSchemaSummary(), summary);
    // The rowid columns and what the args table lists.
    EXPECT_EQ(sqlTable(SqlTableId::Slices)
                  .columns[size_t(sqlTable(SqlTableId::Slices).rowid_column)]
                  .name,
              std::string("id"));
    std::set<std::string> keys;
    for (const std::string& row : rowsOf(db, "SELECT DISTINCT key FROM args"))
        keys.insert(row.substr(0, row.size() - 1));
    for (const std::string& key : keys)
        EXPECT_NE(sqlTable(SqlTableId::Args).doc.find(key), std::string::npos) << key;
    EXPECT_GE(keys.size(), 3u);
}

TEST(TraceQueryColumns, TheExportedFileHasTheDeclaredColumns) {
    const Trace trace = readChromeTraceFile(kData + "/torch_profiler_sample.json");
    const auto dir = std::filesystem::temp_directory_path() /
                     ("trainscope-columns-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "out.db").string();
    exportSqlite(trace, path);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    for (const SqlTableDef& t : sqlTables()) {
        sqlite3_stmt* stmt = nullptr;
        const std::string sql = "PRAGMA table_info(" + std::string(t.name) + ")";
        ASSERT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK);
        std::vector<std::string> got, declared;
        while (sqlite3_step(stmt) == SQLITE_ROW)
            got.push_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1))) +
                          " " + reinterpret_cast<const char*>(sqlite3_column_text(stmt, 2)));
        sqlite3_finalize(stmt);
        if (t.exported)
            for (const SqlColumn& c : t.columns)
                declared.push_back(std::string(c.name) + " " + c.type);
        EXPECT_EQ(got, declared) << t.name;
    }
    sqlite3_close(db);
    std::filesystem::remove_all(dir);
}

// docs/sql.md's "table(column, ...)" lists, whitespace made single spaces.
std::map<std::string, std::vector<std::string>> documentedColumns(const std::string& doc) {
    const std::string tables = doc.substr(doc.find("## Tables"));
    const std::string section = tables.substr(0, tables.find("\n## ", 1));
    const std::string flat = std::regex_replace(section, std::regex("\\s+"), " ");
    std::map<std::string, std::vector<std::string>> out;
    const std::regex list("`(\\w+)\\(([^`)]*)\\)`");
    for (std::sregex_iterator it(flat.begin(), flat.end(), list), end; it != end; ++it) {
        std::vector<std::string>& columns = out[(*it)[1]];
        std::stringstream names((*it)[2]);
        for (std::string name; std::getline(names >> std::ws, name, ',');)
            columns.push_back(name);
    }
    return out;
}

TEST(TraceQueryColumns, DocsListTheDeclaredColumns) {
    std::ifstream in(kData + "/../../docs/sql.md");
    std::stringstream text;
    text << in.rdbuf();
    const std::map<std::string, std::vector<std::string>> documented =
        documentedColumns(text.str());
    EXPECT_EQ(documented.size(), sqlTables().size());
    for (const SqlTableDef& t : sqlTables()) {
        const auto it = documented.find(t.name);
        ASSERT_NE(it, documented.end()) << t.name << " is not in docs/sql.md";
        EXPECT_EQ(it->second, declaredNames(t)) << t.name;
    }
    // The args keys, as the table's description lists them.
    const std::string& args = sqlTable(SqlTableId::Args).doc;
    const std::string keys = args.substr(args.find(": ") + 2);
    const std::string flat = std::regex_replace(text.str(), std::regex("\\s+"), " ");
    EXPECT_NE(flat.find("keys: " + keys + ";"), std::string::npos) << keys;
}

} // namespace
} // namespace ts
