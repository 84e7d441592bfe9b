// Operator statistics and their text/CSV/JSON forms.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ProfTestSupport.h"
#include "analysis/OpStats.h"
#include "analysis/OpTableFormat.h"
#include "report/OpTables.h"

namespace ts {
namespace {

using test::addEvent;
using test::handBuiltTrace;

const OpStat& row(const OpTable& table, const std::string& name, const std::string& shapes = "") {
    for (const OpStat& r : table.rows)
        if (r.name == name && r.shapes == shapes) return r;
    throw std::runtime_error("no row " + name + " " + shapes);
}

TEST(OpStats, HandBuiltSequenceGivesKnownSelfAndTotalTimes) {
    const OpTable table = computeOpStats(handBuiltTrace());
    EXPECT_EQ(row(table, "A").self_cpu_ns, 30);
    EXPECT_EQ(row(table, "A").cpu_total_ns, 100);
    EXPECT_EQ(row(table, "B").calls, 2);
    EXPECT_EQ(row(table, "B").self_cpu_ns, 20 + 20);
    EXPECT_EQ(row(table, "B").cpu_total_ns, 50);
    EXPECT_DOUBLE_EQ(row(table, "B").avgCpuNs(), 25);
    EXPECT_EQ(row(table, "C").self_cpu_ns, 10);
    EXPECT_EQ(row(table, "D").self_cpu_ns, 40);
    EXPECT_EQ(table.total_self_cpu_ns, 120); // = the top-level time, 100 + 20
    // Sorted by self CPU time, descending (ties by name).
    std::vector<std::string> order;
    for (const OpStat& r : table.rows)
        order.push_back(r.name);
    EXPECT_EQ(order, (std::vector<std::string>{"B", "D", "A", "C"}));
}

TEST(OpStats, GroupingByShapesSplitsRows) {
    const Trace t = handBuiltTrace();
    EXPECT_EQ(computeOpStats(t, OpGrouping::Name).rows.size(), 4u);
    const OpTable by_shapes = computeOpStats(t, OpGrouping::NameAndShapes);
    EXPECT_EQ(by_shapes.rows.size(), 5u);
    EXPECT_EQ(row(by_shapes, "B", "[[2, 3]]").self_cpu_ns, 20);
    EXPECT_EQ(row(by_shapes, "B", "[[4, 5]]").cpu_total_ns, 20);
    EXPECT_EQ(row(by_shapes, "B", "[[4, 5]]").calls, 1);
}

TEST(OpStats, ForwardBackwardSplitFollowsAutogradNodes) {
    Trace t;
    addEvent(t, "aten::mm", EventKind::Operator, 0, 10);
    addEvent(t, "MmBackward0", EventKind::Backward, 100, 50);
    addEvent(t, "aten::mm", EventKind::Operator, 110, 20); // inside the node
    t.finalize();
    const OpTable fwd = computeOpStats(t, OpGrouping::Name, OpScope::Forward);
    const OpTable bwd = computeOpStats(t, OpGrouping::Name, OpScope::Backward);
    ASSERT_EQ(fwd.rows.size(), 1u);
    EXPECT_EQ(fwd.rows[0].cpu_total_ns, 10);
    EXPECT_FALSE(fwd.rows[0].backward);
    EXPECT_EQ(row(bwd, "aten::mm").cpu_total_ns, 20);
    EXPECT_TRUE(row(bwd, "aten::mm").backward);
    EXPECT_EQ(row(bwd, "MmBackward0").self_cpu_ns, 30);
    EXPECT_FALSE(row(computeOpStats(t), "aten::mm").backward); // mixed: not backward only
}

TEST(OpStats, MemoryDeviceTimeAndFlopsColumns) {
    Trace t;
    const auto parent = addEvent(t, "outer", EventKind::Operator, 0, 100);
    const auto child = addEvent(t, "inner", EventKind::Operator, 10, 50);
    addEvent(t, "kernel", EventKind::Kernel, 20, 30, 1);
    t.lanes[1].device = true;
    t.events.edit(size_t(parent), [](TraceEvent& e) {
        e.alloc_bytes = 100;
        e.free_bytes = 40;
        e.device_ns = 70; // includes the child's 30
    });
    t.events.edit(size_t(child), [](TraceEvent& e) {
        e.alloc_bytes = 1000;
        e.device_ns = 30;
        e.flops = 5e9;
        e.bytes = 1e9;
    });
    t.finalize();
    const OpTable table = computeOpStats(t);
    EXPECT_EQ(row(table, "outer").self_cpu_mem_bytes, 60);
    EXPECT_EQ(row(table, "outer").cpu_mem_bytes, 1060);
    EXPECT_EQ(row(table, "inner").cpu_mem_bytes, 1000);
    EXPECT_EQ(row(table, "outer").self_device_ns, 40);
    EXPECT_EQ(row(table, "outer").device_total_ns, 70);
    EXPECT_EQ(row(table, "kernel").self_device_ns, 30);
    EXPECT_EQ(row(table, "kernel").self_cpu_ns, 0);
    // GFLOP/s over self time: device time when there is some.
    EXPECT_DOUBLE_EQ(row(table, "inner").gflopsPerSec(), 5e9 / 30);
    EXPECT_DOUBLE_EQ(row(table, "inner").arithmeticIntensity(), 5);
    EXPECT_EQ(table.total_self_device_ns, 40 + 30 + 30);
}

TEST(OpStats, TextTableLooksLikeTorchProfilers) {
    OpTable table = computeOpStats(handBuiltTrace(), OpGrouping::NameAndShapes);
    const std::string text = formatOpTableText(table, 3);
    for (const char* header : {"Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total",
                               "CPU time avg", "# of Calls", "Input Shapes"})
        EXPECT_NE(text.find(header), std::string::npos) << header;
    EXPECT_EQ(text.find("Self CUDA"), std::string::npos); // no device time: no device columns
    EXPECT_NE(text.find("33.33%"), std::string::npos);    // D: 40 of 120
    EXPECT_NE(text.find("Self CPU time total: 0.120us"), std::string::npos);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3 + 3 + 1 + 1); // rules, header, 3 rows
    EXPECT_EQ(formatDurationNs(10720000), "10.720ms");
    EXPECT_EQ(formatDurationNs(638000), "638.000us");
    EXPECT_EQ(formatDurationNs(2.5e9), "2.500s");
    EXPECT_EQ(formatBytes(8192), "8.00 Kb");
    EXPECT_EQ(formatBytes(-16640), "-16.25 Kb");
    EXPECT_EQ(formatBytes(0), "0 b");
    EXPECT_EQ(formatBytes(3 << 20), "3.00 Mb");
}

TEST(OpStats, CsvAndJsonCarryRawNumbers) {
    const OpTable table = computeOpStats(handBuiltTrace(), OpGrouping::NameAndShapes);
    const std::string csv = formatOpTableCsv(table);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "name,input_shapes,backward,calls,self_cpu_ns,self_cpu_pct,cpu_total_ns,"
              "cpu_total_pct,cpu_avg_ns,self_device_ns,device_total_ns,cpu_mem_bytes,"
              "self_cpu_mem_bytes,flops,bytes,gflop_per_s,arithmetic_intensity");
    EXPECT_NE(csv.find("\nD,,0,1,40,33.3333,40,"), std::string::npos);
    EXPECT_NE(csv.find("\nB,\"[[2, 3]]\",0,1,20,"), std::string::npos); // quoted: has commas
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 6);
    const nlohmann::json j = opTableToJson(table, 2);
    EXPECT_EQ(j["total_self_cpu_ns"], 120);
    ASSERT_EQ(j["rows"].size(), 2u);
    EXPECT_EQ(j["rows"][0]["name"], "D");
    EXPECT_EQ(j["rows"][0]["self_cpu_ns"], 40);
}

TEST(OpStats, SortsByAnyColumnAndRejectsUnknownKeys) {
    OpTable table = computeOpStats(handBuiltTrace());
    sortOpTable(table, "calls");
    EXPECT_EQ(table.rows[0].name, "B");
    sortOpTable(table, "cpu_total");
    EXPECT_EQ(table.rows[0].name, "A");
    sortOpTable(table, "name");
    EXPECT_EQ(table.rows[0].name, "A");
    EXPECT_EQ(table.rows[3].name, "D");
    try {
        sortOpTable(table, "speed");
        FAIL() << "expected an exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("'speed'"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("self_cpu"), std::string::npos);
    }
    for (const std::string& key : opSortKeys())
        EXPECT_NO_THROW(sortOpTable(table, key)) << key;
}

} // namespace
} // namespace ts
