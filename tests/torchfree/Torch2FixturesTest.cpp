// Real PyTorch 2.15 traces (tests/data/torch2, recorded on the CPU by
// tests/data/torch2/make_traces.py from the pinned wheel): a CNN with every
// profiler option and a schedule of two spans, a DataLoader with two workers,
// a two-rank Gloo DDP job, export_memory_timeline's raw rows and a
// transformer block. The expected figures were computed from the JSON alone
// by tests/data/torch2/figures.py (`python3 tests/data/torch2/figures.py`,
// the standard library only), not taken from Trainscope: step numbers and
// durations (ns, from the float microseconds rounded), record_function
// ranges, input shapes, the [memory] instants and their peak, the nn.Module
// tree of the python_function frames, the union of the DataLoader ranges in
// each step, distributedInfo and the collectives, and the memory categories
// at the peak summed as HTA does beside torch's own export of the same
// profile in its plot form (memory.timeline.json.gz). Re-recording the
// traces changes every duration and memory time: run figures.py again and
// update the numbers here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "analysis/DistributedView.h"
#include "analysis/GpuDiagnoses.h"
#include "analysis/GpuTraceAnalysis.h"
#include "analysis/MemoryCategories.h"
#include "analysis/MemoryView.h"
#include "analysis/ModuleView.h"
#include "analysis/OpStats.h"
#include "analysis/Roofline.h"
#include "report/IdleTables.h"
#include "sources/SourceRegistry.h"
#include "trace/ChromeTraceReader.h"
#include "trace/FlopModel.h"
#include "trace/RankFolder.h"

#include "OperatorStacks.h"
#include "TestPaths.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

fs::path fixture(const std::string& name) {
    return fs::path(TRAINSCOPE_TEST_DATA_DIR) / "torch2" / name;
}

Trace readFixture(const std::string& name) {
    return readChromeTraceFile(fixture(name));
}

// Trace times are float microseconds with three decimals: Python and the
// reader may round the last nanosecond differently.
constexpr int64_t kNsSlack = 2;

struct Step {
    int64_t number;
    int64_t dur_ns;
};

void expectSteps(const Trace& t, const std::vector<Step>& expected) {
    ASSERT_EQ(t.steps.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(t.steps[i].step, expected[i].number) << i;
        EXPECT_NEAR(t.steps[i].end_ns - t.steps[i].start_ns, expected[i].dur_ns, kNsSlack) << i;
    }
    // The Overview's steps: the same ranges (no device work extends them),
    // every nanosecond of each in one category.
    const GpuTraceAnalysis a = analyzeGpuTrace(t);
    ASSERT_EQ(a.overview.steps.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        const GpuStep& s = a.overview.steps[i];
        EXPECT_EQ(s.label, std::to_string(expected[i].number));
        EXPECT_NEAR(s.cost_ns[size_t(GpuRole::Total)], expected[i].dur_ns, kNsSlack) << i;
        EXPECT_EQ(s.cost_ns[size_t(GpuRole::Kernel)], 0);
        int64_t sum = 0;
        for (size_t r = 0; r < size_t(GpuRole::Total); ++r)
            sum += s.cost_ns[r];
        EXPECT_EQ(sum, s.cost_ns[size_t(GpuRole::Total)]) << i;
    }
}

std::map<std::string, int> annotations(const Trace& t) {
    std::map<std::string, int> out;
    for (size_t i = 0; i < t.events.size(); ++i)
        if (t.events.core(i).category == KinetoCategory::UserAnnotation)
            ++out[t.nameOf(t.events[i])];
    return out;
}

int64_t callsWithShapes(const OpTable& table, const std::string& name, const std::string& shapes) {
    for (const OpStat& r : table.rows)
        if (r.name == name && r.shapes == shapes) return r.calls;
    return -1;
}

const OpStat* opNamed(const OpTable& table, const std::string& name) {
    for (const OpStat& r : table.rows)
        if (r.name == name) return &r;
    return nullptr;
}

// "Conv2d_1" -> "Conv2d": the profiler numbers the instances of a class.
std::string className(const std::string& name) {
    const size_t underscore = name.rfind('_');
    if (underscore == std::string::npos || underscore + 1 == name.size()) return name;
    for (size_t i = underscore + 1; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return name;
    return name.substr(0, underscore);
}

// {"SmallCnn": 2, "SmallCnn/Sequential/Conv2d": 4, ...}: calls per class
// path, instances of one class added up (figures.py's module_tree).
void addPaths(const ModuleRow& row, const std::string& prefix,
              std::map<std::string, int64_t>& out) {
    const std::string name = className(row.name);
    const std::string path = prefix.empty() ? name : prefix + "/" + name;
    out[path] += row.occurrences;
    for (const ModuleRow& child : row.children)
        addPaths(child, path, out);
}

std::map<std::string, int64_t> modulePaths(const ModuleView& view) {
    std::map<std::string, int64_t> out;
    for (const ModuleRow& root : view.roots)
        addPaths(root, "", out);
    return out;
}

const std::map<std::string, int64_t> kCnnModules = {
    {"SmallCnn", 2},
    {"SmallCnn/Linear", 2},
    {"SmallCnn/Sequential", 2},
    {"SmallCnn/Sequential/BatchNorm2d", 4},
    {"SmallCnn/Sequential/Conv2d", 4},
    {"SmallCnn/Sequential/MaxPool2d", 4},
    {"SmallCnn/Sequential/ReLU", 4},
};

// (a) schedule(wait=1, warmup=1, active=2, repeat=2): two files, steps 2, 3
// and 6, 7, each with forward, loss, backward, optimizer.
TEST(Torch2Fixtures, CnnSpansHaveTheirScheduledSteps) {
    expectSteps(readFixture("cnn_span1.pt.trace.json.gz"), {{2, 7633517}, {3, 8088915}});
    expectSteps(readFixture("cnn_span2.pt.trace.json.gz"), {{6, 9300655}, {7, 8359246}});
}

TEST(Torch2Fixtures, CnnRecordFunctionRanges) {
    const std::map<std::string, int> expected = {
        {"ProfilerStep#2", 1},
        {"ProfilerStep#3", 1},
        {"forward", 2},
        {"loss", 2},
        {"backward", 2},
        {"optimizer", 2},
        {"Optimizer.step#SGD.step", 2},
        {"Optimizer.zero_grad#SGD.zero_grad", 2},
    };
    EXPECT_EQ(annotations(readFixture("cnn_span1.pt.trace.json.gz")), expected);
}

TEST(Torch2Fixtures, CnnInputShapes) {
    const Trace t = readFixture("cnn_span1.pt.trace.json.gz");
    const OpTable by_shapes = computeOpStats(t, OpGrouping::NameAndShapes);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::conv2d",
                              "[[8, 3, 16, 16], [8, 3, 3, 3], [8], [], [], [], []]"),
              2);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::conv2d",
                              "[[8, 8, 8, 8], [16, 8, 3, 3], [16], [], [], [], []]"),
              2);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::linear", "[[8, 256], [10, 256], [10]]"), 2);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::addmm", "[[10], [8, 256], [256, 10], [], []]"), 2);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::mm", "[[8, 10], [10, 256]]"), 2);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::mm", "[[10, 8], [8, 256]]"), 2);
}

// with_flops=True: PyTorch 2.15 computes the FLOPs (prof.events() has
// aten::conv2d 31104 for a 2x3x8x8 input and a 3x3 kernel to 8 channels) and
// writes "with_flops": 1 at the top, but export_chrome_trace puts no "flops"
// argument on any event (figures.py: flops_args 0 in every trace). The reader
// estimates them from the input shapes, and a note says so.
TEST(Torch2Fixtures, WithFlopsWritesNoFlopsIntoTheTrace) {
    for (const char* name : {"cnn_span1.pt.trace.json.gz", "transformer.pt.trace.json.gz"}) {
        const Trace t = readFixture(name);
        bool estimated = false;
        for (const std::string& note : t.notes) {
            EXPECT_EQ(note.find("FLOPs taken from the trace"), std::string::npos) << note;
            estimated = estimated || note.find("FLOPs estimated from the recorded input shapes") !=
                                         std::string::npos;
        }
        EXPECT_TRUE(estimated) << name;
    }
}

// The FLOPs of the matrix products, convolutions and attention in each
// ProfilerStep, estimated from the trace's shapes, against what
// torch.utils.flop_counter.FlopCounterMode counts for the same model's
// training step (tests/data/torch2/flop_counts.py -> flop_counts.json):
// every such computation counted once, on the op that did it (addmm,
// mkldnn_convolution, the backward's mm and convolution_backward with its
// output mask, the flash attention and its backward).
int64_t stepFlops(const Trace& t, int64_t step, OpFamily family) {
    double flops = 0;
    for (size_t i = 0; i < t.events.size(); ++i) {
        if (t.events.step(i) != step) continue;
        const TraceEvent e = t.events[i];
        if (e.flops > 0 && opFamily(t.nameOf(e)) == family) flops += e.flops;
    }
    return static_cast<int64_t>(flops);
}

const nlohmann::json& flopCounts() {
    static const nlohmann::json counts = [] {
        std::ifstream in(fixture("flop_counts.json"));
        return nlohmann::json::parse(in);
    }();
    return counts;
}

int64_t counted(const std::string& model, std::initializer_list<const char*> ops) {
    int64_t sum = 0;
    for (const char* op : ops)
        sum += flopCounts()[model].value(op, int64_t(0));
    return sum;
}

TEST(Torch2Fixtures, CnnFlopsAsFlopCounterModeCountsThem) {
    const int64_t conv = counted("cnn", {"aten.convolution", "aten.convolution_backward"});
    const int64_t matmul = counted("cnn", {"aten.addmm", "aten.mm"});
    ASSERT_GT(conv, 0);
    ASSERT_GT(matmul, 0);
    EXPECT_EQ(conv + matmul, flopCounts()["cnn"]["total"].get<int64_t>());
    for (const char* name : {"cnn_span1.pt.trace.json.gz", "cnn_span2.pt.trace.json.gz"}) {
        const Trace t = readFixture(name);
        for (const StepMark& s : t.steps) {
            EXPECT_EQ(stepFlops(t, s.step, OpFamily::Convolution), conv) << name << " " << s.step;
            EXPECT_EQ(stepFlops(t, s.step, OpFamily::MatMul), matmul) << name << " " << s.step;
        }
        // The operator table's rows carry them: the forward convolutions of
        // two steps on aten::mkldnn_convolution, none on the ops above it.
        const OpTable ops = computeOpStats(t);
        ASSERT_NE(opNamed(ops, "aten::mkldnn_convolution"), nullptr);
        EXPECT_EQ(opNamed(ops, "aten::mkldnn_convolution")->flops,
                  2 * counted("cnn", {"aten.convolution"}));
        EXPECT_EQ(opNamed(ops, "aten::conv2d")->flops, 0);
    }
}

TEST(Torch2Fixtures, TransformerFlopsAsFlopCounterModeCountsThem) {
    const int64_t total = flopCounts()["transformer"]["total"].get<int64_t>();
    ASSERT_GT(total, 0);
    const Trace t = readFixture("transformer.pt.trace.json.gz");
    ASSERT_EQ(t.steps.size(), 2u);
    for (const StepMark& s : t.steps)
        EXPECT_EQ(stepFlops(t, s.step, OpFamily::MatMul), total) << s.step;
}

// The Roofline of a PyTorch 2.x trace places its operators (it was empty
// while the FLOPs were taken from the file alone).
TEST(Torch2Fixtures, RooflineOfACpuTrace) {
    const Trace t = readFixture("cnn_span1.pt.trace.json.gz");
    MachinePeaks peaks;
    peaks.fp32_gflops = 100, peaks.bandwidth_gbs = 20, peaks.device = "cpu";
    const Roofline r =
        buildRoofline(peaks, costsFromOpTable(computeOpStats(t), /*low_precision_run=*/false));
    std::set<std::string> placed;
    for (const RooflinePoint& p : r.points)
        placed.insert(p.cost.name);
    for (const char* op : {"aten::mkldnn_convolution", "aten::addmm", "aten::mm",
                           "aten::convolution_backward", "aten::native_batch_norm"})
        EXPECT_TRUE(placed.count(op)) << op;
}

// profile_memory: 348 CPU [memory] instants (174 allocations), the peak of
// "Total Allocated" 322224 bytes, in both spans.
TEST(Torch2Fixtures, CnnMemoryEvents) {
    for (const char* name : {"cnn_span1.pt.trace.json.gz", "cnn_span2.pt.trace.json.gz"}) {
        const Trace t = readFixture(name);
        EXPECT_EQ(t.kineto.memory.size(), 348u) << name;
        size_t allocations = 0;
        for (const DeviceMemoryEvent& m : t.kineto.memory) {
            allocations += m.bytes > 0;
            EXPECT_EQ(m.device_type, 0);
        }
        EXPECT_EQ(allocations, 174u) << name;
        const MemoryView view = computeMemoryView(t);
        ASSERT_EQ(view.devices.size(), 1u);
        EXPECT_EQ(view.devices[0].name, "CPU");
        EXPECT_EQ(view.devices[0].peak_allocated, 322224) << name;
        EXPECT_FALSE(view.devices[0].net_since_start);
        EXPECT_FALSE(view.devices[0].allocations.empty());
        EXPECT_FALSE(view.devices[0].operators.empty());
    }
}

// with_stack: PyTorch 2.x writes python_function frames, no "Call stack";
// every operator of these CPU traces starts inside a source frame (the
// backward runs on the main thread), so every one has a stack, innermost
// first: aten::conv2d under torch/nn/modules/conv.py.
TEST(Torch2Fixtures, CnnCallStacksFromPythonFrames) {
    const Trace t = readFixture("cnn_span1.pt.trace.json.gz");
    EXPECT_EQ(t.kineto.python_frames.size(), 984u);
    const test::OperatorStacks stacks = test::operatorStacks(t, "aten::conv2d");
    const std::string& conv_stack = stacks.first;
    EXPECT_EQ(stacks.ops, 548u);
    EXPECT_EQ(stacks.with_stack, stacks.ops);
    EXPECT_EQ(conv_stack.rfind("torch/nn/modules/conv.py(", 0), 0u) << conv_stack;
    EXPECT_NE(conv_stack.find("make_traces.py("), std::string::npos) << conv_stack;
}

// with_modules (with_stack in eager mode): the nn.Module frames' tree.
TEST(Torch2Fixtures, CnnModuleHierarchy) {
    for (const char* name : {"cnn_span1.pt.trace.json.gz", "cnn_span2.pt.trace.json.gz"}) {
        const ModuleView view = computeModuleView(readFixture(name));
        EXPECT_EQ(view.reason, "");
        ASSERT_EQ(view.roots.size(), 1u);
        EXPECT_EQ(view.roots[0].name, "SmallCnn_0");
        // Two instances of Conv2d, BatchNorm2d, ReLU and MaxPool2d, each a row.
        ASSERT_EQ(view.roots[0].children.size(), 2u);
        EXPECT_EQ(view.roots[0].children[0].name, "Sequential_0");
        EXPECT_EQ(view.roots[0].children[0].children.size(), 8u);
        EXPECT_EQ(view.roots[0].children[0].children[4].name, "Conv2d_1");
        EXPECT_EQ(view.roots[0].children[0].children[4].module_id, 1);
        EXPECT_GT(view.roots[0].host_total_ns, 0);
        EXPECT_EQ(modulePaths(view), kCnnModules) << name;
    }
    std::map<std::string, int64_t> memory = kCnnModules;
    for (auto& [path, calls] : memory)
        calls = calls / 2 * 3; // three steps
    EXPECT_EQ(modulePaths(computeModuleView(readFixture("memory.pt.trace.json.gz"))), memory);
}

// (b) num_workers=2: each step waits in
// enumerate(DataLoader)#..._MultiProcessingDataLoaderIter.__next__.
TEST(Torch2Fixtures, DataLoaderTimeInEveryStep) {
    const Trace t = readFixture("loader.pt.trace.json.gz");
    expectSteps(t, {{2, 12484833}, {3, 6092219}, {4, 11578927}});
    EXPECT_EQ(annotations(t)["enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"], 3);
    const GpuTraceAnalysis a = analyzeGpuTrace(t);
    const int64_t loader_ns[] = {5413250, 2879157, 8154502};
    ASSERT_EQ(a.overview.steps.size(), 3u);
    for (size_t s = 0; s < 3; ++s) {
        const GpuStep& step = a.overview.steps[s];
        EXPECT_NEAR(step.cost_ns[size_t(GpuRole::DataLoader)], loader_ns[s], 2 * kNsSlack) << s;
        EXPECT_GT(step.cost_ns[size_t(GpuRole::CpuExec)], 0) << s;
    }
    EXPECT_GT(a.overview.share(GpuRole::DataLoader), 0.4); // 16.4 of 30.2 ms
    const OpTable by_shapes = computeOpStats(t, OpGrouping::NameAndShapes);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::linear", "[[16, 32], [64, 32], [64]]"), 3);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::linear", "[[16, 64], [4, 64], [4]]"), 3);
}

// (c) two Gloo ranks: distributedInfo (backend gloo, rank, world_size 2),
// per step DDP's gradient all-reduce (one bucket of 9610 floats) and the
// loss' all_reduce (one float): c10d::allreduce_ on the main thread, each
// with a gloo:all_reduce range on a Gloo thread.
TEST(Torch2Fixtures, GlooRanks) {
    const fs::path dir = fixture("ddp_gloo");
    const std::vector<RankSpan> spans = findRankSpans({dir});
    ASSERT_EQ(spans.size(), 1u);
    const std::vector<RankTrace> traces = readRankSpan(spans[0]);
    ASSERT_EQ(traces.size(), 2u);
    const std::vector<std::vector<Step>> steps = {{{2, 21869933}, {3, 16747405}},
                                                  {{2, 19403820}, {3, 8202043}}};
    for (size_t r = 0; r < 2; ++r) {
        EXPECT_EQ(traces[r].rank, int64_t(r));
        EXPECT_EQ(traces[r].rank_source, RankSource::DistributedInfo);
        const nlohmann::json info = nlohmann::json::parse(traces[r].trace.kineto.distributed_info);
        EXPECT_EQ(info["backend"], "gloo");
        EXPECT_EQ(info["rank"], int(r));
        EXPECT_EQ(info["world_size"], 2);
        expectSteps(traces[r].trace, steps[r]);
        std::map<std::string, int> a = annotations(traces[r].trace);
        EXPECT_EQ(a["gloo:all_reduce"], 4);
        EXPECT_EQ(a["DistributedDataParallel.forward"], 2);
        EXPECT_EQ(a["all_reduce_loss"], 2);
        const OpTable by_shapes = computeOpStats(traces[r].trace, OpGrouping::NameAndShapes);
        EXPECT_EQ(callsWithShapes(by_shapes, "c10d::allreduce_", "[[[9610]], [], [], [], [], []]"),
                  2);
        EXPECT_EQ(callsWithShapes(by_shapes, "c10d::allreduce_", "[[[]], [], [], [], [], []]"), 2);
    }
    const GpuTraceAnalysis a = analyzeGpuTrace(traces[0].trace);
    EXPECT_TRUE(a.overview.use_ddp);
    EXPECT_TRUE(a.overview.gloo);
    EXPECT_FALSE(a.overview.nccl);
    EXPECT_TRUE(a.overview.has_communication);
}

TEST(Torch2Fixtures, GlooDistributedView) {
    const DistributedView v =
        computeDistributedView(readRankSpan(findRankSpans({fixture("ddp_gloo")})[0]));
    ASSERT_EQ(v.ranks.size(), 2u);
    for (size_t r = 0; r < 2; ++r) {
        const RankView& rank = v.ranks[r];
        EXPECT_EQ(rank.rank, int64_t(r));
        EXPECT_EQ(rank.backend, "gloo");
        EXPECT_EQ(rank.world_size, 2);
        EXPECT_EQ(rank.library, "Gloo");
        EXPECT_FALSE(rank.uses_gpu);
        ASSERT_EQ(rank.steps.size(), 2u);
        EXPECT_EQ(rank.steps[0].label, "2");
        EXPECT_EQ(rank.steps[1].label, "3");
        for (const DistributedStep& s : rank.steps) {
            EXPECT_TRUE(s.has_communication);
            EXPECT_GT(s.communication_ns + s.overlapping_ns, 0);
            EXPECT_GT(s.computation_ns + s.overlapping_ns, 0);
            EXPECT_EQ(s.computation_ns + s.overlapping_ns + s.communication_ns + s.other_ns,
                      s.total_ns);
        }
        // Four collectives in the two steps, 2 x 9610 floats and 2 x 1: the
        // gloo:all_reduce ranges, each c10d::allreduce_ not counted again
        // (it was: 8 collectives, a c10d::allreduce_ row of 0 bytes).
        EXPECT_EQ(rank.collectives, 4u);
        ASSERT_EQ(rank.ops.size(), 1u);
        EXPECT_EQ(rank.ops[0].name, "gloo:all_reduce");
        EXPECT_EQ(rank.ops[0].calls, 4);
        EXPECT_EQ(rank.ops[0].total_bytes, 2 * 9610 * 4 + 2 * 4);
    }
    // Rank 1's first gradient all-reduce ends (21.22 ms) after its step 2
    // (19.40 ms; figures.py's printout of the collectives' ranges).
    EXPECT_EQ(v.ranks[0].outside_steps, 0u);
    EXPECT_EQ(v.ranks[1].outside_steps, 1u);
    // Rank 0 is blocked in c10d::allreduce_ on its main thread 13.5 ms per
    // step (27.1 ms in the trace's two steps) inside operators that enclose
    // the calls: that is waiting, not computation (it was counted as
    // computation, and rank 0 named the straggler while the others waited
    // 0 us for it). Rank 1 never waits (synchronizing 0 against rank 0's
    // 3.56 ms): rank 0 holds nobody up, and rank 1 computes less: no straggler.
    EXPECT_LT(v.ranks[0].average.computation_ns, v.ranks[0].average.total_ns / 4);
    EXPECT_GT(v.ranks[0].average.synchronizing_ns, 3000000);
    EXPECT_EQ(v.ranks[1].average.synchronizing_ns, 0);
    EXPECT_TRUE(v.stragglers.empty());
}

// (d) export_memory_timeline(..., device="cpu"): 1446 raw rows in every one
// of the eight categories; at the peak (444512 bytes) HTA's sums and torch's
// own plot form agree category by category.
TEST(Torch2Fixtures, MemoryTimelineCategories) {
    const std::string file = fixture("memory.raw.json.gz").string();
    ASSERT_EQ(ts::sources::recognise(file).kind, &ts::sources::sourceKind("memory-timeline"));
    const CategoryTimeline t = readCategoryTimeline(file);
    EXPECT_EQ(t.rows, 1446u);
    EXPECT_TRUE(std::is_sorted(t.times_ns.begin(), t.times_ns.end()));
    EXPECT_GE(t.times_ns.size(), 1228u); // distinct times (the first may appear twice)
    EXPECT_LE(t.times_ns.size(), 1229u);
    const CategoryPeak peak = categoryPeak(t);
    EXPECT_EQ(peak.total_bytes, 444512);
    EXPECT_EQ(peak.time_ns, 1796165307079409951);
    // Parameter, Optimizer state, Input, Temporary, Activation, Gradient, Autograd, Unknown.
    const std::array<int64_t, kMemoryCategories> at_peak = {16040,  32120, 74112, 0,
                                                            213512, 10408, 65536, 32784};
    EXPECT_EQ(peak.bytes, at_peak);
    const std::array<int64_t, kMemoryCategories> at_end = {16040, 32120, 74112, 0, 0, 0, 0, 16};
    EXPECT_EQ(t.bytes.back(), at_end);
    std::array<bool, kMemoryCategories> seen{};
    for (const auto& point : t.bytes)
        for (size_t c = 0; c < kMemoryCategories; ++c)
            seen[c] = seen[c] || point[c] != 0;
    for (size_t c = 0; c < kMemoryCategories; ++c) {
        if (c == 3) continue; // Temporary: none in this profile
        EXPECT_TRUE(seen[c]) << memoryCategoryName(c);
    }
}

// The plot form ([times_us, sizes]) is not the raw rows: refused, saying
// what it is and how to get the rows.
TEST(Torch2Fixtures, MemoryTimelinePlotFormIsRefused) {
    const std::string file = fixture("memory.timeline.json.gz").string();
    try {
        readCategoryTimeline(file);
        ADD_FAILURE() << "read the plot form";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("memory.timeline.json.gz: export_memory_timeline's plot form"),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find(".raw.json.gz"), std::string::npos) << what;
    }
    // Rows of four numbers still read, and other shapes keep their message.
    EXPECT_EQ(categoryTimelineFromJson("[[1, 1, 8, 0], [2, 4, -8, 0]]", "x").rows, 2u);
    EXPECT_THROW(categoryTimelineFromJson("[[1, 2], [3, 4]]", "x"), std::invalid_argument);
}

TEST(Torch2Fixtures, MemoryTraceWithoutSchedule) {
    const Trace t = readFixture("memory.pt.trace.json.gz");
    // No schedule: no ProfilerStep# ranges. The steps run from the end of one
    // Optimizer.step#Adam.step range to the end of the next (as in on-demand
    // traces; tests/data/ondemand/figures.py prints these): the first
    // iteration, before the first end, is in none.
    EXPECT_EQ(t.steps_from, "Optimizer.step#Adam.step");
    const int64_t ends[] = {12965546, 18524303, 23387195};
    ASSERT_EQ(t.steps.size(), 2u);
    for (size_t i = 0; i < 2; ++i)
        EXPECT_TRUE(t.steps[i].start_ns == ends[i] && t.steps[i].end_ns == ends[i + 1]) << i;
    const std::map<std::string, int> a = annotations(t);
    EXPECT_EQ(a.at("forward"), 3);
    EXPECT_EQ(a.at("Optimizer.step#Adam.step"), 3);
    EXPECT_EQ(t.kineto.memory.size(), 1032u);
    const MemoryView view = computeMemoryView(t);
    ASSERT_EQ(view.devices.size(), 1u);
    EXPECT_EQ(view.devices[0].peak_allocated, 354344);
    const GpuTraceAnalysis g = analyzeGpuTrace(t);
    ASSERT_EQ(g.overview.steps.size(), 2u);
    EXPECT_EQ(g.overview.steps[0].label, "0");
    EXPECT_EQ(g.overview.steps[1].label, "1");
    EXPECT_EQ(g.overview.steps[1].cost_ns[size_t(GpuRole::CpuExec)], 4723275);
}

// HTA's views on a CPU-only trace say why they are empty, and only that:
// with no device work there is no last step's work to leave out (the note
// said "0 device events launched from its start").
TEST(Torch2Fixtures, DiagnosesOfACpuTraceSayWhyTheyAreEmpty) {
    const Trace t = readFixture("cnn_span1.pt.trace.json.gz");
    const GpuDiagnoses d = diagnoseGpu(t);
    EXPECT_TRUE(d.activity.empty());
    const std::vector<std::string> notes = activityNotes(d.activity);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("no kernels, copies or sets on a GPU stream"), std::string::npos);
}

// The Overview's flags name the libraries by their own ranges: the
// c10d::allreduce_ calls of a Gloo job are no NCCL.
TEST(Torch2Fixtures, AGlooJobUsesNoNccl) {
    for (const char* name :
         {"ddp_gloo/rank0.pt.trace.json.gz", "ddp_gloo/rank1.pt.trace.json.gz"}) {
        const GpuTraceAnalysis a = analyzeGpuTrace(readFixture(name));
        EXPECT_TRUE(a.overview.gloo) << name;
        EXPECT_FALSE(a.overview.nccl) << name;
    }
    // A trace of both still has both, and c10d:: alone neither.
    const Trace both = parseChromeTrace(R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
        {"ph": "X", "cat": "cpu_op", "name": "c10d::allreduce_", "pid": 1, "tid": 1, "ts": 10, "dur": 20},
        {"ph": "X", "cat": "cpu_op", "name": "nccl:all_reduce", "pid": 1, "tid": 1, "ts": 12, "dur": 10},
        {"ph": "X", "cat": "cpu_op", "name": "gloo:broadcast", "pid": 1, "tid": 2, "ts": 40, "dur": 10}
    ]})",
                                        "both.json");
    const GpuTraceAnalysis b = analyzeGpuTrace(both);
    EXPECT_TRUE(b.overview.nccl);
    EXPECT_TRUE(b.overview.gloo);
    const Trace c10d = parseChromeTrace(R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "c10d::allreduce_", "pid": 1, "tid": 1, "ts": 10, "dur": 20}
    ]})",
                                        "c10d.json");
    const GpuTraceAnalysis c = analyzeGpuTrace(c10d);
    EXPECT_FALSE(c.overview.nccl);
    EXPECT_FALSE(c.overview.gloo);
    EXPECT_TRUE(c.overview.has_communication);
}

// (e) nn.TransformerEncoderLayer: attention through SDPA's CPU flash kernel.
TEST(Torch2Fixtures, TransformerAttention) {
    const Trace t = readFixture("transformer.pt.trace.json.gz");
    expectSteps(t, {{2, 14902821}, {3, 10617741}});
    const OpTable by_shapes = computeOpStats(t, OpGrouping::NameAndShapes);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::scaled_dot_product_attention",
                              "[[4, 4, 12, 8], [4, 4, 12, 8], [4, 4, 12, 8], [], [], [], [], []]"),
              2);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::_scaled_dot_product_flash_attention_for_cpu",
                              "[[4, 4, 12, 8], [4, 4, 12, 8], [4, 4, 12, 8], [], [], [], []]"),
              2);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::linear", "[[12, 4, 32], [96, 32], [96]]"), 2);
    EXPECT_EQ(callsWithShapes(by_shapes, "aten::linear", "[[4, 32], [5, 32], [5]]"), 2);
    int64_t linear = 0;
    for (const OpStat& r : by_shapes.rows)
        if (r.name == "aten::linear") linear += r.calls;
    EXPECT_EQ(linear, 10);
    EXPECT_EQ(annotations(t)["Optimizer.step#AdamW.step"], 2);
}

} // namespace
} // namespace ts
