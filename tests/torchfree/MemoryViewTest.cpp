// The Memory view against torch.profiler's TensorBoard plugin: its memory
// tests (pytorch/kineto tb_plugin/test/test_profiler.py at 041e7ce:
// test_memory_view, test_memory_curve_no_step_plot,
// test_memory_curve_step_plot) with the plugin's expected numbers, plus the
// time range, Trainscope's own memory samples and the report shapes.
//
// Deliberate differences, checked below: the time range is [start, end)
// (the plugin's is [start, end]); the curve is in bytes and microseconds
// (the plugin's defaults are MB and ms) and is down-sampled by per-bucket
// min/max rather than LTTB so that the peak always survives.
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/MemoryView.h"
#include "report/MemoryReport.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

using json = nlohmann::json;

std::string fixture(const std::string& name) {
    return std::string(TRAINSCOPE_TEST_DATA_DIR) + "/tb_plugin/" + name;
}

// The plugin's order: [self increase, self allocation size, self allocation
// count, increase, allocation size, allocation count, calls].
using PluginRow = std::vector<int64_t>;

std::map<std::string, PluginRow> asPluginRows(const std::vector<MemoryOpRow>& rows) {
    std::map<std::string, PluginRow> out;
    for (const MemoryOpRow& r : rows)
        out[r.name] = {r.self_size_increase,
                       r.self_alloc_size,
                       r.self_alloc_count,
                       r.size_increase,
                       r.alloc_size,
                       r.alloc_count,
                       r.calls};
    return out;
}

const DeviceMemoryView& device(const MemoryView& view, const std::string& name) {
    for (const DeviceMemoryView& d : view.devices)
        if (d.name == name) return d;
    throw std::runtime_error("no device " + name);
}

class MemoryViewFixture : public ::testing::Test {
protected:
    static const Trace& trace() {
        static const Trace t = readChromeTraceFile(fixture("test_memory_view.json"));
        return t;
    }
};

// test_memory_view: gpu_expected_data and cpu_expected_data (test file line 1613).
TEST_F(MemoryViewFixture, PerOperatorStatisticsMatchThePlugin) {
    const MemoryView view = computeMemoryView(trace());
    ASSERT_EQ(view.devices.size(), 2u); // assertEqual(len(memory_stats), 2)
    EXPECT_EQ(view.devices[0].name, "CPU");
    EXPECT_EQ(view.devices[1].name, "GPU0"); // assertIn('GPU0', memory_stats)
    const std::map<std::string, PluginRow> gpu{{"aten::to", {104, 104, 2, 104, 204, 3, 4}},
                                               {"aten::nll_loss_backward", {0, 10, 1, 0, 10, 1, 1}},
                                               {"aten::copy_", {0, 100, 1, 0, 100, 1, 1}},
                                               {"aten::addmm", {0, 30, 1, 0, 30, 1, 1}},
                                               {"aten::tranas_stride", {0, 50, 1, 0, 50, 1, 1}},
                                               {"aten::transpose", {0, 50, 1, 0, 100, 2, 1}},
                                               {"aten::t", {0, 100, 1, 0, 200, 3, 1}},
                                               {"aten::liner", {20, 130, 3, 20, 360, 7, 1}}};
    const std::map<std::string, PluginRow> cpu{{"aten::to", {4, 4, 1, 4, 4, 1, 4}},
                                               {"aten::liner", {0, 100, 1, 50, 150, 2, 1}},
                                               {"aten::tranas_stride", {50, 50, 1, 50, 50, 1, 1}},
                                               {"aten::transpose", {0, 0, 0, 50, 50, 1, 1}},
                                               {"aten::t", {0, 0, 0, 50, 50, 1, 1}}};
    // The plugin's dicts hold exactly these rows (upstream's observed output).
    EXPECT_EQ(asPluginRows(device(view, "GPU0").operators), gpu);
    EXPECT_EQ(asPluginRows(device(view, "CPU").operators), cpu);
}

// Rows come sorted by name, as the plugin's table lists them.
TEST_F(MemoryViewFixture, OperatorRowsAreSortedByName) {
    const MemoryView view = computeMemoryView(trace());
    const std::vector<MemoryOpRow>& rows = device(view, "GPU0").operators;
    for (size_t i = 1; i < rows.size(); ++i)
        EXPECT_LT(rows[i - 1].name, rows[i].name);
}

// The events table, derived by hand from the plugin's rules (times from the
// first event, ts 10): the release at ts 749 is a CPU record for address 690,
// which the plugin matches with the GPU allocation at 690 all the same.
TEST_F(MemoryViewFixture, AllocationsPairAllocationAndReleaseByAddress) {
    const MemoryView view = computeMemoryView(trace());
    const std::vector<MemoryAllocation>& gpu = device(view, "GPU0").allocations;
    ASSERT_FALSE(gpu.empty());
    EXPECT_EQ(gpu[0].op, "aten::nll_loss_backward");
    EXPECT_EQ(gpu[0].bytes, 10);
    EXPECT_EQ(gpu[0].allocated_ns, 340000);
    EXPECT_EQ(gpu[0].released_ns, 350000);
    EXPECT_EQ(gpu[0].lifetimeNs(), 10000);
    bool cross_device = false;
    for (const MemoryAllocation& a : gpu)
        if (a.allocated_ns == 680000 && a.released_ns == 739000 && a.bytes == 100 &&
            a.op == "<unknown>")
            cross_device = true;
    EXPECT_TRUE(cross_device);
    // Unmatched allocations at 210, 265, 300 (ts) end the GPU table, no release.
    EXPECT_EQ(gpu.back().released_ns, std::nullopt);
}

// Only records inside [start, end) and ops touching it count: ts [700, 799)
// keeps aten::liner's subtree but not its last release at ts 799.
TEST_F(MemoryViewFixture, TimeRangeFiltersBothTables) {
    MemoryTimeRange range;
    range.start_ns = 690000; // ts 700
    range.end_ns = 789000;   // ts 799, exclusive
    const MemoryView view = computeMemoryView(trace(), range);
    const std::map<std::string, PluginRow> rows = asPluginRows(device(view, "GPU0").operators);
    EXPECT_EQ(rows.count("aten::to"), 0u);
    EXPECT_EQ(rows.count("aten::copy_"), 0u);
    EXPECT_EQ(rows.at("aten::liner"), (PluginRow{30, 130, 3, 30, 360, 7, 1}));
    EXPECT_EQ(rows.at("aten::t"), (PluginRow{0, 100, 1, 0, 200, 3, 1}));
    for (const MemoryAllocation& a : device(view, "GPU0").allocations) {
        if (a.allocated_ns) {
            EXPECT_GE(*a.allocated_ns, range.start_ns);
        }
        if (a.released_ns) {
            EXPECT_LT(*a.released_ns, range.end_ns);
        }
    }
    // The curve is never narrowed.
    EXPECT_EQ(device(view, "GPU0").curve.size(),
              computeMemoryView(trace()).devices[1].curve.size());
}

class MemoryCurveFixture : public ::testing::Test {
protected:
    static const MemoryView& view() {
        static const MemoryView v =
            computeMemoryView(readChromeTraceFile(fixture("test_memory_curve.json")));
        return v;
    }
    // The plugin's event_data_cpu / event_data_gpu: (ts, total allocated, total reserved).
    static std::vector<MemoryPoint> expected(bool gpu) {
        const std::vector<std::vector<int64_t>> cpu_rows{
            {1, 4, 0},      {20, 0, 0},     {100, 8000, 0}, {200, 0, 0},
            {300, 4, 0},    {400, 20, 0},   {500, 4020, 0}, {600, 4004, 0},
            {700, 4084, 0}, {800, 4080, 0}, {900, 4000, 0}, {905, 0, 0}};
        const std::vector<std::vector<int64_t>> gpu_rows{
            {2, 400, 512},      {22, 0, 512},       {105, 5000, 10240}, {106, 8000, 10240},
            {205, 3000, 10240}, {401, 4024, 10240}, {499, 4028, 10240}, {501, 1028, 10240},
            {502, 1024, 10240}, {906, 0, 10240}};
        std::vector<MemoryPoint> out;
        for (const auto& r : gpu ? gpu_rows : cpu_rows) // minus start_ts (1), in ns
            out.push_back(MemoryPoint{(r[0] - 1) * 1000, r[1], r[2]});
        return out;
    }
};

bool samePoints(const std::vector<MemoryPoint>& a, const std::vector<MemoryPoint>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].t_ns != b[i].t_ns || a[i].allocated != b[i].allocated ||
            a[i].reserved != b[i].reserved)
            return false;
    return true;
}

// test_memory_curve_no_step_plot: one point per record, times from start_ts.
TEST_F(MemoryCurveFixture, CurveWithoutStepPlotMatchesThePlugin) {
    EXPECT_TRUE(samePoints(device(view(), "CPU").curve, expected(false)));
    EXPECT_TRUE(samePoints(device(view(), "GPU0").curve, expected(true)));
}

// test_memory_curve_step_plot: 2n - 1 points; odd ones repeat the previous
// values at the next point's time.
TEST_F(MemoryCurveFixture, StepPlotMatchesThePlugin) {
    for (bool gpu : {false, true}) {
        const std::vector<MemoryPoint> data = expected(gpu);
        const std::vector<MemoryPoint> steps = stepPlot(device(view(), gpu ? "GPU0" : "CPU").curve);
        ASSERT_EQ(steps.size(), 2 * data.size() - 1);
        for (size_t i = 0; i < steps.size(); ++i) {
            const MemoryPoint& values = data[i / 2];
            const int64_t t = data[(i + 1) / 2].t_ns;
            EXPECT_EQ(steps[i].t_ns, t) << i;
            EXPECT_EQ(steps[i].allocated, values.allocated) << i;
            EXPECT_EQ(steps[i].reserved, values.reserved) << i;
        }
    }
}

TEST_F(MemoryCurveFixture, PeaksAreTheHighestAllocatedPoint) {
    EXPECT_EQ(device(view(), "CPU").peak_allocated, 8000);
    EXPECT_EQ(device(view(), "CPU").peak_t_ns, 99000);
    EXPECT_EQ(device(view(), "GPU0").peak_allocated, 8000);
    EXPECT_EQ(device(view(), "GPU0").peak_t_ns, 105000);
}

// The plugin's memory events table for this fixture (us, B), in its order.
TEST_F(MemoryCurveFixture, AllocationTableMatchesThePlugin) {
    using Row = std::tuple<int64_t, std::optional<int64_t>, std::optional<int64_t>>;
    auto rows = [](const std::vector<MemoryAllocation>& all) {
        std::vector<Row> out;
        for (const MemoryAllocation& a : all) {
            EXPECT_EQ(a.op, "<unknown>");
            auto us = [](std::optional<int64_t> ns) {
                return ns ? std::optional<int64_t>(*ns / 1000) : std::nullopt;
            };
            out.emplace_back(a.bytes, us(a.allocated_ns), us(a.released_ns));
        }
        return out;
    };
    const std::optional<int64_t> none;
    const std::vector<Row> cpu{{4, 0, 19},     {8000, 99, 199},   {16, 399, 599},   {4, 299, 799},
                               {80, 699, 899}, {4000, 499, none}, {4000, none, 904}};
    const std::vector<Row> gpu{
        {400, 1, 21}, {5000, 104, 204}, {3000, 105, 500}, {4, 498, 501}, {1024, 400, 905}};
    EXPECT_EQ(rows(device(view(), "CPU").allocations), cpu);
    EXPECT_EQ(rows(device(view(), "GPU0").allocations), gpu);
    EXPECT_EQ(device(view(), "GPU0").allocations[2].lifetimeNs(), 395000);
}

// Trainscope's own samples: device CPU, op = the sample's event, no
// addresses so nothing is matched with a release.
Trace ownTrace() {
    Trace t;
    const int32_t lane = t.laneFor(1, false, "main");
    auto add = [&](const char* name, int64_t start, int64_t dur) {
        TraceEvent e;
        e.name = t.internName(name);
        e.kind = EventKind::Operator;
        e.lane = lane;
        e.start_ns = start;
        e.dur_ns = dur;
        t.events.push_back(e);
    };
    add("aten::linear", 0, 100);
    add("aten::empty", 10, 10);
    add("aten::relu", 200, 100);
    t.finalize();
    auto index = [&](const char* name) {
        for (size_t i = 0; i < t.events.size(); ++i)
            if (t.nameOf(t.events[i]) == name) return static_cast<int32_t>(i);
        return -1;
    };
    t.memory = {{15, 64, 64, index("aten::empty")},
                {50, 96, 32, index("aten::linear")},
                {60, 32, -64, index("aten::linear")},
                {250, 40, 8, index("aten::relu")}};
    return t;
}

TEST(MemoryViewOwnTrace, SamplesGiveCurveAllocationsAndOperators) {
    const MemoryView view = computeMemoryView(ownTrace());
    ASSERT_EQ(view.devices.size(), 1u);
    EXPECT_TRUE(view.own_samples);
    const DeviceMemoryView& cpu = view.devices[0];
    EXPECT_EQ(cpu.name, "CPU");
    ASSERT_EQ(cpu.curve.size(), 4u);
    EXPECT_EQ(cpu.curve[0].reserved, -1);
    EXPECT_EQ(cpu.peak_allocated, 96);
    EXPECT_EQ(cpu.peak_t_ns, 50);
    ASSERT_EQ(cpu.allocations.size(), 3u); // the release is not listed
    EXPECT_EQ(cpu.allocations[0].op, "aten::linear (aten::empty)");
    EXPECT_EQ(cpu.allocations[0].bytes, 64);
    EXPECT_EQ(cpu.allocations[0].allocated_ns, 15);
    EXPECT_EQ(cpu.allocations[0].released_ns, std::nullopt);
    EXPECT_EQ(cpu.allocations[2].op, "aten::relu");
    const std::map<std::string, PluginRow> ops{{"aten::empty", {64, 64, 1, 64, 64, 1, 1}},
                                               {"aten::linear", {-32, 32, 1, 32, 96, 2, 1}},
                                               {"aten::relu", {8, 8, 1, 8, 8, 1, 1}}};
    EXPECT_EQ(asPluginRows(cpu.operators), ops);
}

TEST(MemoryViewDownsample, KeepsThePeakFirstAndLast) {
    std::vector<MemoryPoint> curve;
    for (int64_t i = 0; i < 10000; ++i)
        curve.push_back(MemoryPoint{i, i % 7, 0});
    curve[4321].allocated = 1000;
    const std::vector<MemoryPoint> small = downsampleCurve(curve, 2000);
    EXPECT_LE(small.size(), 2000u);
    EXPECT_GE(small.size(), 1000u);
    EXPECT_EQ(small.front().t_ns, 0);
    EXPECT_EQ(small.back().t_ns, 9999);
    bool peak = false;
    for (size_t i = 0; i < small.size(); ++i) {
        if (i) {
            EXPECT_LT(small[i - 1].t_ns, small[i].t_ns);
        }
        peak = peak || (small[i].t_ns == 4321 && small[i].allocated == 1000);
    }
    EXPECT_TRUE(peak);
    EXPECT_EQ(downsampleCurve(curve, 20000).size(), curve.size());
}

TEST(MemoryReport, JsonShape) {
    const MemoryView view =
        computeMemoryView(readChromeTraceFile(fixture("test_memory_view.json")));
    const json j = memoryJson(view);
    EXPECT_FALSE(j.at("own_samples").get<bool>());
    ASSERT_EQ(j.at("devices").size(), 2u);
    const json& gpu = j.at("devices")[1];
    EXPECT_EQ(gpu.at("name"), "GPU0");
    EXPECT_TRUE(gpu.at("curve").is_array());
    const json& liner = gpu.at("operators").back();
    EXPECT_EQ(liner.at("operator"), "aten::transpose"); // sorted by name
    for (const json& op : gpu.at("operators"))
        for (const char* key :
             {"calls", "size_increase_bytes", "self_size_increase_bytes", "allocation_count",
              "self_allocation_count", "allocation_size_bytes", "self_allocation_size_bytes"})
            EXPECT_TRUE(op.at(key).is_number_integer()) << key;
    const json& first = gpu.at("allocations")[0];
    EXPECT_EQ(first.at("operator"), "aten::nll_loss_backward");
    EXPECT_EQ(first.at("bytes"), 10);
    EXPECT_DOUBLE_EQ(first.at("allocated_at_us").get<double>(), 340);
    EXPECT_DOUBLE_EQ(first.at("lifetime_us").get<double>(), 10);
    EXPECT_TRUE(gpu.at("allocations").back().at("released_at_us").is_null());
}

TEST(MemoryReport, JsonCurveKeepsPeakAndNullsUnknownReserved) {
    const MemoryView curve =
        computeMemoryView(readChromeTraceFile(fixture("test_memory_curve.json")));
    const json gpu = memoryJson(curve).at("devices")[1];
    EXPECT_EQ(gpu.at("peak_allocated_bytes"), 8000);
    EXPECT_DOUBLE_EQ(gpu.at("peak_time_us").get<double>(), 105);
    EXPECT_EQ(gpu.at("curve")[0], json::array({1.0, 400, 512}));
    const json own = memoryJson(computeMemoryView(ownTrace()));
    EXPECT_TRUE(own.at("own_samples").get<bool>());
    EXPECT_TRUE(own.at("devices")[0].at("curve")[0][2].is_null());
    EXPECT_LE(memoryJson(curve, 0, 4).at("devices")[1].at("curve").size(), 4u);
}

TEST(MemoryReport, CsvHasThreeTablesAndTextNotesOwnSamples) {
    const MemoryView view =
        computeMemoryView(readChromeTraceFile(fixture("test_memory_view.json")));
    const std::string csv = memoryCsv(view);
    EXPECT_EQ(csv.rfind("device,peak_allocated_bytes,peak_time_us,curve_points,curve\n", 0), 0u);
    EXPECT_NE(csv.find("\n\ndevice,operator,calls,size_increase_bytes,"), std::string::npos);
    EXPECT_NE(csv.find("GPU0,aten::liner,1,20,20,7,3,360,130\n"), std::string::npos);
    EXPECT_NE(csv.find("\n\ndevice,operator,bytes,allocated_at_us,released_at_us,lifetime_us\n"),
              std::string::npos);
    EXPECT_NE(csv.find("GPU0,aten::nll_loss_backward,10,340,350,10\n"), std::string::npos);
    const std::string text = memoryText(computeMemoryView(ownTrace()));
    EXPECT_NE(text.find("carry no addresses"), std::string::npos);
    EXPECT_NE(text.find("Memory CPU: peak allocated 0.09 KB"), std::string::npos);
}

// Kineto traces before PyTorch 1.10 (the plugin's 2021 ResNet-50 samples):
// [memory] events with Bytes only, no Total Allocated and no Addr. The
// plugin draws no curve and lists no allocations; Trainscope draws the
// running sum of Bytes per device, flagged as the net allocation since the
// trace began, and still gives the per-operator statistics (they need only
// Bytes). Times are relative to the first event (the op at 100 us).
TEST(MemoryViewWithoutTotals, NetCurveSinceTheTraceBegan) {
    const MemoryView view = computeMemoryView(
        readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/memory_without_totals.json"));
    ASSERT_EQ(view.devices.size(), 2u);
    const DeviceMemoryView& gpu = device(view, "GPU0");
    EXPECT_TRUE(gpu.net_since_start);
    std::vector<int64_t> allocated;
    for (const MemoryPoint& p : gpu.curve) {
        allocated.push_back(p.allocated);
        EXPECT_EQ(p.reserved, -1);
    }
    EXPECT_EQ(allocated, (std::vector<int64_t>{1024, 5120, 4096, 6144, 2048}));
    EXPECT_EQ(gpu.curve[3].t_ns, 200000);
    EXPECT_EQ(gpu.peak_allocated, 6144);
    EXPECT_EQ(gpu.peak_t_ns, 200000);
    EXPECT_TRUE(gpu.allocations.empty()); // no addresses to pair allocations with releases

    const auto rows = asPluginRows(gpu.operators);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows.at("aten::empty"), (PluginRow{1024, 1024, 1, 1024, 1024, 1, 1}));
    EXPECT_EQ(rows.at("aten::add"), (PluginRow{3072, 4096, 1, 3072, 4096, 1, 1}));

    const DeviceMemoryView& cpu = device(view, "CPU");
    EXPECT_TRUE(cpu.net_since_start);
    ASSERT_EQ(cpu.curve.size(), 2u);
    EXPECT_EQ(cpu.curve[1].allocated, 0);
    EXPECT_EQ(cpu.peak_allocated, 16);
    EXPECT_EQ(cpu.peak_t_ns, 5000);

    // Traces with totals keep the plugin's rule and no flag.
    const MemoryView with_totals =
        computeMemoryView(readChromeTraceFile(fixture("test_memory_curve.json")));
    for (const DeviceMemoryView& d : with_totals.devices)
        EXPECT_FALSE(d.net_since_start) << d.name;
}

TEST(MemoryViewWithoutTotals, ReportsSayWhatTheCurveIs) {
    const MemoryView view = computeMemoryView(
        readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/memory_without_totals.json"));
    const std::string text = memoryText(view);
    EXPECT_NE(text.find("Memory GPU0: peak net allocated since the trace began 6.00 KB at 200 us"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("no Total Allocated"), std::string::npos);
    const json gpu = memoryJson(view).at("devices")[1];
    EXPECT_EQ(gpu.at("curve_kind"), "net_since_start");
    EXPECT_EQ(gpu.at("peak_allocated_bytes"), 6144);
    EXPECT_NE(memoryCsv(view).find("\nGPU0,6144,200,5,net_since_start\n"), std::string::npos)
        << memoryCsv(view);
    EXPECT_EQ(memoryJson(computeMemoryView(readChromeTraceFile(fixture("test_memory_curve.json"))))
                  .at("devices")[0]
                  .at("curve_kind"),
              "allocated");
}

} // namespace
} // namespace ts
