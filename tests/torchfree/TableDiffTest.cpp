// B − A as an operation on two tables (report/TableDiff.h): rows matched by
// their keys, every measure beside its change, rows of one side marked.
#include <gtest/gtest.h>

#include "TestPaths.h"
#include "analysis/GpuTraceAnalysis.h"
#include "report/GpuTables.h"
#include "report/TableDiff.h"
#include "trace/ChromeTraceReader.h"

using namespace ts;
using namespace ts::table;

namespace {

TableSpec kernels(std::vector<std::pair<std::string, double>> rows) {
    TableSpec t;
    t.title = "Kernels";
    t.columns = {{"name", "Name"},
                 {"calls", "Calls", "", ColumnKind::Integer},
                 {"total_us", "Total (us)", "", ColumnKind::Number}};
    for (const auto& [name, us] : rows)
        t.rows.push_back({textCell(name), integerCell(1), numberCell(std::to_string(us), us)});
    return t;
}

const Cell& cell(const TableSpec& t, size_t row, const std::string& key) {
    return t.rows.at(row).at(size_t(t.columnIndex(key)));
}

} // namespace

TEST(TableDiff, MatchesRowsByKeyAndOrdersThemByTheChange) {
    const TableSpec a = kernels({{"gemm", 100}, {"relu", 10}, {"gone", 5}});
    const TableSpec b = kernels({{"relu", 40}, {"gemm", 90}, {"new", 1}});
    TableDiffOptions o;
    o.order_key = "total_us";
    const TableSpec d = diffTables(a, b, o);
    EXPECT_EQ(d.title, "Kernels: B − A");
    ASSERT_EQ(d.rows.size(), 4u);
    // relu +30, gemm -10, gone -5, new +1.
    EXPECT_EQ(cell(d, 0, "name").text, "relu");
    EXPECT_DOUBLE_EQ(cell(d, 0, "total_us").value, 40);
    EXPECT_DOUBLE_EQ(cell(d, 0, "total_us_delta").value, 30);
    EXPECT_EQ(cell(d, 0, "total_us_delta").text, "+30.00");
    EXPECT_EQ(cell(d, 1, "name").text, "gemm");
    EXPECT_DOUBLE_EQ(cell(d, 1, "total_us_delta").value, -10);
    EXPECT_EQ(cell(d, 2, "name").text, "gone");
    EXPECT_EQ(cell(d, 2, "in").text, "A only");
    EXPECT_TRUE(std::isnan(cell(d, 2, "total_us").value));
    EXPECT_DOUBLE_EQ(cell(d, 2, "calls_delta").value, -1);
    EXPECT_EQ(cell(d, 3, "in").text, "B only");
    EXPECT_EQ(cell(d, 0, "in").text, "both");
    EXPECT_EQ(d.columns[size_t(d.columnIndex("calls_delta"))].kind, ColumnKind::Integer);
}

// A stream's number says which stream a row is about: rows pair by it, and
// it has no change of its own.
TEST(TableDiff, IdentityColumnsPairRowsInsteadOfBeingMeasured) {
    const auto streams = [](std::vector<std::pair<int, double>> rows) {
        TableSpec t;
        t.columns = {{"stream", "Stream", "", ColumnKind::Integer, false, ColumnUnit::None, true},
                     {"idle_us", "Idle (us)", "", ColumnKind::Number}};
        for (const auto& [stream, us] : rows)
            t.rows.push_back({integerCell(stream), numberCell(std::to_string(us), us)});
        return t;
    };
    const TableSpec d = diffTables(streams({{7, 100}, {23, 50}}), streams({{23, 80}, {7, 90}}));
    EXPECT_EQ(d.columnIndex("stream_delta"), -1);
    ASSERT_EQ(d.rows.size(), 2u);
    EXPECT_EQ(cell(d, 0, "stream").text, "23"); // +30 before -10
    EXPECT_DOUBLE_EQ(cell(d, 0, "idle_us_delta").value, 30);
    EXPECT_DOUBLE_EQ(cell(d, 1, "idle_us_delta").value, -10);
}

// The same analysed table of one trace against itself changes nothing.
TEST(TableDiff, ATraceAgainstItselfHasNoChange) {
    const Trace trace = readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) +
                                            "/h100/resnet50_bs64_bf16.pt.trace.json.gz");
    const GpuTraceAnalysis analysis = analyzeGpuTrace(trace);
    const TableSpec table = kernelTableSpec(analysis.kernels, false);
    const TableSpec d = diffTables(table, table);
    ASSERT_EQ(d.rows.size(), table.rows.size());
    for (size_t r = 0; r < d.rows.size(); ++r) {
        EXPECT_EQ(cell(d, r, "in").text, "both");
        for (size_t c = 0; c < d.columns.size(); ++c)
            if (d.columns[c].key.size() > 6 &&
                d.columns[c].key.compare(d.columns[c].key.size() - 6, 6, "_delta") == 0 &&
                !std::isnan(d.rows[r][c].value))
                EXPECT_EQ(d.rows[r][c].value, 0) << d.columns[c].key;
    }
}
