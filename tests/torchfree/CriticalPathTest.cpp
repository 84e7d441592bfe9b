// analysis/CriticalPath.h: Holistic Trace Analysis' critical path, its
// tests re-expressed (HTA 0.6.1 tests/test_critical_path_analysis.py, with
// CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1 as they run), and what-if.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/CriticalPath.h"
#include "analysis/LaunchIndex.h"
#include "inspect/TraceStatsCommand.h"
#include "report/CriticalPathTables.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

const char* kAlexnetForward = "[param|pytorch.model.alex_net|0|0|0|measure|forward]";

struct Analysed {
    Trace trace;
    LaunchIndex launches;
    CriticalPathReport report;
};

// HTA's graph: DataLoader events are no nodes unless named (its default).
CriticalPathOptions htaOptions() {
    CriticalPathOptions o;
    o.graph.data_loading = false;
    return o;
}

std::unique_ptr<Analysed> analyse(const std::string& file, const CpWindowChoice& choice,
                                  CriticalPathOptions options = htaOptions()) {
    auto a = std::make_unique<Analysed>();
    a->trace = readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/" + file);
    a->launches = LaunchIndex::build(a->trace);
    std::string error;
    const std::optional<CpWindow> window = chooseWindow(a->trace, choice, error);
    if (!window) throw std::runtime_error(error);
    a->report = analyseCriticalPath(a->trace, a->launches, *window, options);
    return a;
}

CpWindowChoice annotation(const std::string& name, int64_t instance) {
    CpWindowChoice c;
    c.annotation = name;
    c.instance = instance;
    return c;
}

const CpEdge* edgeBetween(const CpGraph& g, int32_t from, int32_t to) {
    for (const CpEdge& e : g.edges)
        if (e.from == from && e.to == to) return &e;
    return nullptr;
}

size_t countType(const CpGraph& g, const CpPath& path, CpEdgeType type) {
    size_t n = 0;
    for (int32_t i : path.edges)
        n += g.edges[size_t(i)].type == type ? 1 : 0;
    return n;
}

int64_t us(int64_t ns) {
    return ns / 1000;
}

int64_t boundUs(const CriticalPathReport& r, BoundBy bound) {
    for (const CpShare& s : r.breakdown)
        if (s.bound == bound) return us(s.ns);
    return 0;
}

// The first child of `parent` named `name` with nodes in the graph.
int32_t child(const Trace& trace, const CpGraph& g, int32_t parent, const std::string& name) {
    for (int32_t e : g.node_events) {
        const TraceEvent ev = trace.events[size_t(e)];
        if (ev.parent == parent && trace.nameOf(ev) == name) return e;
    }
    return -1;
}

// HTA's test_critical_path_basic_add: the nested relu_ > clamp_min_ >
// cudaLaunchKernel, their five edges and what each is attributed to; the
// path's 314 edges (315 nodes); its length and breakdown (HTA's figures).
TEST(CriticalPath, SimpleAddAsHtasTest) {
    auto a = analyse("hta/critical_path_simple_add.json.gz", annotation(kAlexnetForward, 1));
    const CpGraph& g = a->report.graph;
    const Trace& t = a->trace;
    int32_t relu = -1, clamp = -1, launch = -1;
    for (int32_t e : g.node_events) {
        if (t.nameOf(t.events[size_t(e)]) != "aten::relu_") continue;
        relu = e;
        clamp = child(t, g, relu, "aten::clamp_min_");
        launch = clamp >= 0 ? child(t, g, clamp, "cudaLaunchKernel") : -1;
        if (launch >= 0) break;
    }
    ASSERT_GE(launch, 0);
    struct Expected {
        int32_t from, to;
        int64_t us;
        int32_t attributed;
    };
    const Expected edges[] = {
        {g.startNode(relu), g.startNode(clamp), 15, relu},
        {g.startNode(clamp), g.startNode(launch), 14, clamp},
        {g.startNode(launch), g.endNode(launch), 17, launch},
        {g.endNode(launch), g.endNode(clamp), 15, clamp},
        {g.endNode(clamp), g.endNode(relu), 32, relu},
    };
    for (const Expected& x : edges) {
        const CpEdge* e = edgeBetween(g, x.from, x.to);
        ASSERT_NE(e, nullptr);
        EXPECT_EQ(e->type, CpEdgeType::Operator);
        EXPECT_EQ(us(e->weight), x.us);
        EXPECT_EQ(e->event, x.attributed);
    }
    // Operator and kernel-gap edges carry an event, the others none.
    for (const CpEdge& e : g.edges)
        EXPECT_EQ(e.event >= 0,
                  e.type == CpEdgeType::Operator || e.type == CpEdgeType::KernelDelay);
    // Launch delays (one of 27 us, HTA's fft kernel), zero-weight causal
    // launch edges, a 7 us kernel gap, and device syncs of weight 0.
    size_t launch27 = 0, zero_launch = 0, gap7 = 0, syncs = 0;
    for (const CpEdge& e : g.edges) {
        launch27 += e.type == CpEdgeType::LaunchDelay && us(e.weight) == 27;
        zero_launch += e.type == CpEdgeType::LaunchDelay && e.weight == 0;
        gap7 += e.type == CpEdgeType::KernelDelay && us(e.weight) == 7;
        if (e.type == CpEdgeType::Sync) {
            ++syncs;
            EXPECT_EQ(e.weight, 0);
        }
    }
    EXPECT_GE(launch27, 1u);
    EXPECT_GE(zero_launch, 1u);
    EXPECT_GE(gap7, 1u);
    EXPECT_GE(syncs, 1u);
    const CriticalPathReport& r = a->report;
    EXPECT_EQ(r.path.edges.size(), 314u);
    EXPECT_EQ(g.nodes.size(), 414u);
    EXPECT_EQ(g.edges.size(), 440u);
    EXPECT_EQ(us(r.path.length_ns), 241724);
    EXPECT_EQ(boundUs(r, BoundBy::CpuBound), 241190);
    EXPECT_EQ(boundUs(r, BoundBy::GpuCompute), 508);
    EXPECT_EQ(boundUs(r, BoundBy::LaunchOverhead), 17);
    EXPECT_EQ(boundUs(r, BoundBy::KernelOverhead), 9);
    // HTA's overlaid trace marks the path's events: 159 of them.
    std::set<int32_t> events;
    for (int32_t i : r.path.edges) {
        events.insert(g.nodes[size_t(g.edges[size_t(i)].from)].event);
        events.insert(g.nodes[size_t(g.edges[size_t(i)].to)].event);
    }
    EXPECT_EQ(events.size(), 159u);
    // and draws 21 of its edges by default (dependency, launch and sync).
    EXPECT_EQ(countType(g, r.path, CpEdgeType::Dependency) +
                  countType(g, r.path, CpEdgeType::LaunchDelay) +
                  countType(g, r.path, CpEdgeType::Sync),
              21u);
}

// HTA's test_critical_path_inter_stream_sync and breakdown test: AlexNet's
// forward has sync edges of weight 0 and a path in four categories (HTA's
// summary has five rows: these and the zero-weight edges').
TEST(CriticalPath, AlexnetForwardAsHta) {
    auto a = analyse("hta/critical_path_alexnet.json.gz", annotation(kAlexnetForward, 1));
    const CriticalPathReport& r = a->report;
    size_t syncs = 0;
    for (const CpEdge& e : r.graph.edges)
        if (e.type == CpEdgeType::Sync) {
            ++syncs;
            EXPECT_EQ(e.weight, 0);
        }
    EXPECT_GT(syncs, 0u);
    EXPECT_EQ(r.breakdown.size(), 4u);
    EXPECT_EQ(us(r.path.length_ns), 35834);
    EXPECT_EQ(boundUs(r, BoundBy::CpuBound), 32042);
    EXPECT_EQ(boundUs(r, BoundBy::GpuCompute), 3712);
    EXPECT_EQ(boundUs(r, BoundBy::LaunchOverhead), 30);
    EXPECT_EQ(boundUs(r, BoundBy::KernelOverhead), 50);
    double pct = 0;
    for (const CpShare& s : r.breakdown)
        pct += s.pct;
    EXPECT_NEAR(pct, 100.0, 0.1);
}

// cudaEventSynchronize and cudaDeviceSynchronize: GPU -> CPU sync edges
// (the Event Sync's wait_on fields name the cudaEventRecord).
TEST(CriticalPath, EventSyncAsHta) {
    auto a = analyse("hta/critical_path_cuda_event_sync.json.gz", annotation("ProfilerStep", 0));
    const CriticalPathReport& r = a->report;
    size_t syncs = 0;
    for (const CpEdge& e : r.graph.edges)
        syncs += e.type == CpEdgeType::Sync ? 1 : 0;
    EXPECT_GE(syncs, 2u);
    EXPECT_EQ(r.graph.nodes.size(), 54u);
    EXPECT_EQ(r.graph.edges.size(), 57u);
    EXPECT_EQ(us(r.path.length_ns), 2411);
    EXPECT_EQ(boundUs(r, BoundBy::CpuBound), 2365);
    EXPECT_EQ(boundUs(r, BoundBy::GpuCompute), 36);
    EXPECT_EQ(boundUs(r, BoundBy::LaunchOverhead), 10);
}

// cudaStreamWaitEvent: a kernel waits for one on another stream.
TEST(CriticalPath, StreamWaitEventAcrossStreamsAsHta) {
    CpWindowChoice whole;
    whole.whole_trace = true;
    auto a = analyse("hta/critical_path_cuda_event_sync_multi_stream.json.gz", whole);
    const CriticalPathReport& r = a->report;
    const Trace& t = a->trace;
    size_t across = 0;
    for (const CpEdge& e : r.graph.edges) {
        if (e.type != CpEdgeType::Sync) continue;
        const TraceEvent from = t.events[size_t(r.graph.nodes[size_t(e.from)].event)];
        const TraceEvent to = t.events[size_t(r.graph.nodes[size_t(e.to)].event)];
        across += t.lanes[size_t(to.lane)].device && from.lane != to.lane ? 1 : 0;
    }
    EXPECT_GE(across, 1u);
    EXPECT_EQ(r.graph.edges.size(), 85u);
    EXPECT_EQ(us(r.path.length_ns), 1178);
    EXPECT_EQ(boundUs(r, BoundBy::CpuBound), 1025);
    EXPECT_EQ(boundUs(r, BoundBy::GpuCompute), 124);
    EXPECT_EQ(boundUs(r, BoundBy::LaunchOverhead), 14);
    EXPECT_EQ(boundUs(r, BoundBy::KernelOverhead), 15);
}

TEST(CriticalPath, WhatIfRecomputesThePath) {
    auto a = analyse("h100/resnet50_bs64_bf16.pt.trace.json.gz", CpWindowChoice{});
    const CriticalPathReport& r = a->report;
    WhatIfFactor same;
    same.target = WhatIfFactor::Target::Category;
    same.category = BoundBy::CpuBound;
    same.factor = 1;
    EXPECT_EQ(whatIf(a->trace, r, {same}).path_ns, r.path.length_ns);
    // No CPU time at all: the path is what the GPU and the overheads leave.
    WhatIfFactor no_cpu = same;
    no_cpu.factor = 0;
    const WhatIfResult fast = whatIf(a->trace, r, {no_cpu});
    EXPECT_LT(fast.path_ns, r.path.length_ns - boundUs(r, BoundBy::CpuBound) * 1000 / 2);
    EXPECT_EQ(fast.step_ns, r.step_ns - fast.saved_ns);
    for (const CpShare& s : fast.breakdown)
        EXPECT_NE(s.bound, BoundBy::CpuBound);
    // Halving an item saves at most half its time on the path.
    ASSERT_FALSE(r.ranked.empty());
    for (size_t i = 1; i < r.ranked.size(); ++i)
        EXPECT_GE(r.ranked[i - 1].saved_ns, r.ranked[i].saved_ns);
    for (const CpShare& s : r.kernels) {
        WhatIfFactor f;
        f.name = s.name;
        f.factor = 0.5;
        const WhatIfResult half = whatIf(a->trace, r, {f});
        EXPECT_GE(half.saved_ns, 0);
        EXPECT_LE(half.saved_ns, s.ns / 2 + 1);
        break;
    }
    WhatIfFactor missing;
    missing.name = "no_such_kernel";
    missing.factor = 0.5;
    EXPECT_THROW(whatIf(a->trace, r, {missing}), std::invalid_argument);
}

TEST(CriticalPath, ParsesWhatIfFactors) {
    WhatIfFactor f;
    std::string error;
    ASSERT_TRUE(parseWhatIf("kernel:sgemm=0.5", f, error));
    EXPECT_EQ(f.target, WhatIfFactor::Target::Kernel);
    EXPECT_EQ(f.name, "sgemm");
    EXPECT_EQ(f.factor, 0.5);
    ASSERT_TRUE(parseWhatIf("category:launch=0", f, error));
    EXPECT_EQ(f.category, BoundBy::LaunchOverhead);
    ASSERT_TRUE(parseWhatIf("op:aten::add_=2", f, error)); // names may hold ':'
    EXPECT_EQ(f.name, "aten::add_");
    EXPECT_FALSE(parseWhatIf("kernel:x=fast", f, error));
    EXPECT_NE(error.find("factor"), std::string::npos);
    EXPECT_FALSE(parseWhatIf("category:gpu=1", f, error));
    EXPECT_NE(error.find("unknown category 'gpu'"), std::string::npos);
    EXPECT_FALSE(parseWhatIf("thread:x=1", f, error));
    EXPECT_FALSE(parseWhatIf("kernel:x=-1", f, error));
}

TEST(CriticalPath, WindowsNameWhatExists) {
    const Trace t = readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) +
                                        "/h100/resnet50_bs64_bf16.pt.trace.json.gz");
    std::string error;
    CpWindowChoice step;
    step.step = 3;
    const std::optional<CpWindow> w = chooseWindow(t, step, error);
    ASSERT_TRUE(w);
    EXPECT_EQ(w->label, "ProfilerStep#3");
    step.step = 99;
    EXPECT_FALSE(chooseWindow(t, step, error));
    EXPECT_EQ(error, "step 99 is not in the trace; it has steps 2 to 4");
    EXPECT_FALSE(chooseWindow(t, annotation("ProfilerStep", 7), error));
    EXPECT_EQ(error, "annotation 'ProfilerStep' has 3 instance(s) (0 to 2), not 7");
    EXPECT_FALSE(chooseWindow(t, annotation("no such range", 0), error));
    EXPECT_EQ(error, "annotation 'no such range' matches no event on a CPU thread");
    EXPECT_EQ(chooseWindow(t, CpWindowChoice{}, error)->label, "ProfilerStep#2");
}

// Clock skew: a kernel that the trace shows before its launch, waited for by
// a stream sync that ended before the launch began, closes a cycle
// (launch -> kernel -> sync -> launch). It is broken at its lightest edge,
// with a note, and the path is found (HTA gives up on such a graph).
TEST(CriticalPath, ACycleFromClockSkewIsBrokenWithANote) {
    const std::string json = R"({"traceEvents": [
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 1, "tid": 1,
       "ts": 80, "dur": 19, "args": {"correlation": 1}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
       "ts": 100, "dur": 10, "args": {"correlation": 2}},
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 90, "dur": 5,
       "args": {"device": 0, "stream": 7, "correlation": 2}},
      {"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 7, "ts": 94,
       "dur": 4, "args": {"device": 0, "stream": 7, "correlation": 1}}]})";
    const Trace trace = parseChromeTrace(json, "skew.json");
    const LaunchIndex launches = LaunchIndex::build(trace);
    CpWindowChoice whole;
    whole.whole_trace = true;
    std::string error;
    const std::optional<CpWindow> window = chooseWindow(trace, whole, error);
    ASSERT_TRUE(window);
    const CriticalPathReport r = analyseCriticalPath(trace, launches, *window);
    EXPECT_EQ(r.graph.cycle_edges, 1u);
    EXPECT_EQ(r.graph.order.size(), r.graph.nodes.size());
    bool noted = false;
    for (const std::string& note : r.graph.notes)
        noted = noted || note.find("cycle") != std::string::npos;
    EXPECT_TRUE(noted);
    EXPECT_GT(r.path.length_ns, 0);
}

// Issue 62: the path follows the kernels a step launched past the step's
// CPU end, so it can be longer than the step and Of Step sum past 100%:
// the output says so where the numbers are (text, JSON, CSV; the GUI's
// note is the same sentence). A step of 100 us whose last launch starts a
// kernel of 160 us at 40 us.
TEST(CriticalPath, APathPastTheStepsEndIsSaidWhereTheSharesAre) {
    const std::string json = R"({"traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1,
       "ts": 0, "dur": 100},
      {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 80},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
       "ts": 20, "dur": 10, "args": {"correlation": 1}},
      {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 40, "dur": 160,
       "args": {"device": 0, "stream": 7, "correlation": 1}}]})";
    const auto dir = std::filesystem::temp_directory_path() / "trainscope_cp_past_end";
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "past_end.json").string();
    std::ofstream(file) << json;
    const Trace trace = readChromeTraceFile(file);
    const LaunchIndex launches = LaunchIndex::build(trace);
    std::string error;
    const std::optional<CpWindow> window = chooseWindow(trace, CpWindowChoice{}, error);
    ASSERT_TRUE(window) << error;
    const CriticalPathReport r = analyseCriticalPath(trace, launches, *window);
    EXPECT_EQ(r.step_ns, 100000);
    EXPECT_EQ(r.past_window_end_ns, 100000); // the kernel ends at 200 us
    ASSERT_GT(r.path.length_ns, r.step_ns);
    double sum = 0;
    for (const CpShare& s : r.breakdown)
        sum += s.step_pct;
    char expected_sum[32];
    std::snprintf(expected_sum, sizeof expected_sum, "%.1f%%", sum);
    const std::string note = "the path runs 100.0 us past the CPU end of ProfilerStep#1 (the GPU "
                             "work it launched ends later), so Of Step sums to " +
                             std::string(expected_sum);
    EXPECT_EQ(criticalPathLengthNote(r), note);
    const nlohmann::json j = criticalPathJson(trace, r);
    EXPECT_DOUBLE_EQ(j["path_past_step_end_us"].get<double>(), 100.0);
    EXPECT_NEAR(j["step_pct_sum"].get<double>(), sum, 1e-9);
    EXPECT_EQ(j["notes"].back(), note);

    TraceStatsOptions o;
    o.file = file;
    o.view = "critical-path";
    std::ostringstream text, err;
    ASSERT_EQ(runTraceStats(o, text, err), 0) << err.str();
    EXPECT_NE(text.str().find("note: " + note + "\n"), std::string::npos) << text.str();
    o.format = "csv";
    std::ostringstream csv;
    ASSERT_EQ(runTraceStats(o, csv, err), 0) << err.str();
    EXPECT_NE(csv.str().find("window,step_us,path_us,past_step_end_us,step_pct_sum,note\n"
                             "ProfilerStep#1,100,"),
              std::string::npos)
        << csv.str();
    EXPECT_NE(csv.str().find(note), std::string::npos) << csv.str();

    // A path inside its step: no note, 0 past the end.
    auto inside = analyse("h100/resnet50_bs64_bf16.pt.trace.json.gz", CpWindowChoice{});
    EXPECT_LE(inside->report.path.length_ns, inside->report.step_ns);
    EXPECT_EQ(criticalPathLengthNote(inside->report), "");
    std::filesystem::remove_all(dir);
}

// Where HTA gives up, Trainscope gives a path: the second step of a trace
// whose last step HTA drops (HTA: "name 'nan' is not defined"), and a trace
// without a GPU (HTA: "Queue length time series is required").
TEST(CriticalPath, PathsWhereHtaFails) {
    auto last = analyse("distributed_hta/rank-0.json.gz", annotation("ProfilerStep", 1));
    EXPECT_GT(last->report.path.length_ns, 0);
    EXPECT_FALSE(last->report.breakdown.empty());
    auto cpu = analyse("torch_profiler_sample.json", CpWindowChoice{});
    EXPECT_GT(cpu->report.path.length_ns, 0);
    EXPECT_EQ(cpu->report.graph.kernels, 0u);
    ASSERT_FALSE(cpu->report.breakdown.empty());
    EXPECT_EQ(cpu->report.breakdown.front().bound, BoundBy::CpuBound);
}

} // namespace
} // namespace ts
