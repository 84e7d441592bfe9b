// The steps of on-demand traces (trace/OptimizerSteps.h): a PyTorch process
// traced through libkineto's daemon (KINETO_USE_DAEMON=1) records no
// ProfilerStep#N, so Trainscope takes a step from the end of one
// Optimizer.step#... range to the end of the next. The fixtures are real
// PyTorch 2.15 CPU traces (tests/data/ondemand, recorded by record.py): one
// asked for by iterations (AdamW), one by duration that starts inside an
// iteration (SGD). The expected figures were computed from the JSON alone by
// tests/data/ondemand/figures.py (`python3 tests/data/ondemand/figures.py`),
// not taken from Trainscope: each step's start and end, the Overview's CPU
// Exec and Other per step, the events outside every step. Re-recording the
// traces changes them all: run figures.py again and update the numbers here.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "analysis/CriticalPath.h"
#include "analysis/DistributedView.h"
#include "analysis/GpuTraceAnalysis.h"
#include "analysis/TimelineTracks.h"
#include "analysis/TraceDiff.h"
#include "trace/ChromeTraceReader.h"
#include "trace/OptimizerSteps.h"
#include "trace/RankFolder.h"

#include "TestPaths.h"

// A namespace of its own: the unity build puts this file beside others with
// helpers of the same names.
namespace ts::ondemand_steps_test {

namespace fs = std::filesystem;

fs::path fixture(const std::string& name) {
    return fs::path(TRAINSCOPE_TEST_DATA_DIR) / "ondemand" / name;
}

// figures.py's rows: {number, start_ns, end_ns, dur_ns, cpu_exec_ns, other_ns}.
struct Expected {
    int64_t number, start_ns, end_ns, dur_ns, cpu_exec_ns, other_ns;
};

const std::vector<Expected> kIterationSteps = {
    {0, 4552424, 86704624, 82152200, 1313110, 80839090},
    {1, 86704624, 178940591, 92235967, 11138675, 81097292},
    {2, 178940591, 267113625, 88173034, 7221765, 80951269},
    {3, 267113625, 359094333, 91980708, 10905157, 81075551},
    {4, 359094333, 444229918, 85135585, 4209904, 80925681},
};

const std::vector<Expected> kDurationSteps = {
    {0, 9219779, 53823092, 44603313, 33789008, 10814305},
    {1, 53823092, 103302613, 49479521, 38635064, 10844457},
    {2, 103302613, 140225122, 36922509, 26135113, 10787396},
    {3, 140225122, 177130415, 36905293, 24765802, 12139491},
    {4, 177130415, 221995365, 44864950, 34117967, 10746983},
    {5, 221995365, 266608632, 44613267, 33794855, 10818412},
};

void expectSteps(const Trace& t, const std::vector<Expected>& expected) {
    ASSERT_EQ(t.steps.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(t.steps[i].step, expected[i].number) << i;
        EXPECT_EQ(t.steps[i].start_ns, expected[i].start_ns) << i;
        EXPECT_EQ(t.steps[i].end_ns, expected[i].end_ns) << i;
    }
    // The Overview's step table and bars: the same steps, every nanosecond
    // of each CPU Exec (an operator or annotation runs) or Other.
    const GpuTraceAnalysis a = analyzeGpuTrace(t);
    ASSERT_EQ(a.overview.steps.size(), expected.size());
    int64_t total = 0;
    for (size_t i = 0; i < expected.size(); ++i) {
        const GpuStep& s = a.overview.steps[i];
        EXPECT_EQ(s.label, std::to_string(expected[i].number));
        EXPECT_EQ(s.start_ns, expected[i].start_ns) << i;
        EXPECT_EQ(s.end_ns, expected[i].end_ns) << i;
        EXPECT_EQ(s.cost_ns[size_t(GpuRole::Total)], expected[i].dur_ns) << i;
        EXPECT_EQ(s.cost_ns[size_t(GpuRole::CpuExec)], expected[i].cpu_exec_ns) << i;
        EXPECT_EQ(s.cost_ns[size_t(GpuRole::Other)], expected[i].other_ns) << i;
        total += expected[i].dur_ns;
    }
    EXPECT_NEAR(a.overview.average_ns[size_t(GpuRole::Total)],
                double(total) / double(expected.size()), 1e-6);
}

// Events before the first step and from the end of the last: in the trace,
// in no step; every other event in the step holding its start.
void expectEventSteps(const Trace& t, size_t before, size_t after) {
    size_t outside_before = 0, outside_after = 0;
    for (size_t i = 0; i < t.events.size(); ++i) {
        const int64_t start = t.events.core(i).start_ns, step = t.events.step(i);
        if (start < t.steps.front().start_ns) {
            ++outside_before;
            EXPECT_EQ(step, -1) << t.nameOf(t.events[i]);
        } else if (start >= t.steps.back().end_ns) {
            ++outside_after;
            EXPECT_EQ(step, -1) << t.nameOf(t.events[i]);
        } else {
            ASSERT_GE(step, 0) << t.nameOf(t.events[i]);
            EXPECT_GE(start, t.steps[size_t(step)].start_ns);
            EXPECT_LT(start, t.steps[size_t(step)].end_ns);
        }
    }
    EXPECT_EQ(outside_before, before);
    EXPECT_EQ(outside_after, after);
}

TEST(OnDemandSteps, IterationTriggeredTraceStepsFromAdamW) {
    const Trace t = readChromeTraceFile(fixture("iteration_adamw.json.gz"));
    EXPECT_EQ(t.events.size(), 1381u); // figures.py: X events, all kept
    EXPECT_EQ(t.steps_from, "Optimizer.step#AdamW.step");
    expectSteps(t, kIterationSteps);
    // The first iteration, whole here (the trace began 3 ms before its
    // forward), is left out all the same: nothing in a trace says so.
    expectEventSteps(t, 231, 0);
    ASSERT_FALSE(t.notes.empty());
    EXPECT_EQ(t.notes.back(), derivedStepsText(t));
    EXPECT_NE(t.notes.back().find("no ProfilerStep#N"), std::string::npos);
    EXPECT_NE(t.notes.back().find("5 steps"), std::string::npos);
    EXPECT_NE(t.notes.back().find("Optimizer.step#AdamW.step"), std::string::npos);
}

TEST(OnDemandSteps, DurationTriggeredTraceLeavesOutItsPartialFirstIteration) {
    const Trace t = readChromeTraceFile(fixture("duration_sgd.json.gz"));
    EXPECT_EQ(t.events.size(), 771u);
    EXPECT_EQ(t.steps_from, "Optimizer.step#SGD.step");
    expectSteps(t, kDurationSteps);
    // The trace began in a backward pass (its first operator, 8229259 ns in,
    // is an aten::t whose aten::linear began before): step 0 starts where
    // that iteration's optimizer step ended, and the iteration cut at the
    // end is no step either.
    expectEventSteps(t, 25, 86);
}

TEST(OnDemandSteps, EveryViewSeesTheSteps) {
    const Trace t = readChromeTraceFile(fixture("duration_sgd.json.gz"));
    // The Timeline's step spans.
    const TimelineTracks tracks = buildTimelineTracks(t);
    ASSERT_EQ(tracks.steps.size(), kDurationSteps.size());
    for (size_t i = 0; i < tracks.steps.size(); ++i) {
        EXPECT_EQ(tracks.steps[i].step, kDurationSteps[i].number);
        EXPECT_EQ(tracks.steps[i].host_start, kDurationSteps[i].start_ns);
        EXPECT_EQ(tracks.steps[i].host_end, kDurationSteps[i].end_ns);
    }
    // --step N (critical path, area): N counts the steps from 0 in trace order.
    std::string error;
    CpWindowChoice choice;
    choice.step = 2;
    const std::optional<CpWindow> w = chooseWindow(t, choice, error);
    ASSERT_TRUE(w) << error;
    EXPECT_EQ(w->start, kDurationSteps[2].start_ns);
    EXPECT_EQ(w->end, kDurationSteps[2].end_ns);
    choice.step = 6;
    EXPECT_FALSE(chooseWindow(t, choice, error));
    EXPECT_EQ(error, "step 6 is not in the trace; it has steps 0 to 5");
    EXPECT_EQ(stepWindows(t).size(), kDurationSteps.size());
}

// Each rank's steps and their times (figures.py: dur_ns of ddp/worker0 and
// ddp/worker1).
const std::vector<std::vector<int64_t>> kRankStepNs = {
    {56167706, 35916134, 52094875, 56810932, 52920250},
    {56544981, 35149827, 52478560, 57191852, 52143887},
};

TEST(OnDemandSteps, DistributedViewHasEachRanksSteps) {
    const std::vector<RankSpan> spans = findRankSpans({fixture("ddp")});
    ASSERT_EQ(spans.size(), 1u);
    const std::vector<RankTrace> ranks = readRankSpan(spans[0]);
    const DistributedView view = computeDistributedView(ranks, {});
    ASSERT_EQ(view.ranks.size(), 2u);
    for (size_t r = 0; r < 2; ++r) {
        SCOPED_TRACE(r);
        EXPECT_EQ(ranks[r].trace.steps_from, "Optimizer.step#SGD.step");
        ASSERT_EQ(view.ranks[r].steps.size(), kRankStepNs[r].size());
        int64_t sum = 0;
        for (size_t i = 0; i < kRankStepNs[r].size(); ++i) {
            const DistributedStep& s = view.ranks[r].steps[i];
            EXPECT_EQ(s.label, std::to_string(i));
            EXPECT_EQ(s.total_ns, kRankStepNs[r][i]);
            EXPECT_EQ(s.computation_ns + s.overlapping_ns + s.communication_ns + s.other_ns,
                      s.total_ns);
            sum += kRankStepNs[r][i];
        }
        EXPECT_EQ(view.ranks[r].average.total_ns, sum / int64_t(kRankStepNs[r].size()));
        EXPECT_EQ(view.ranks[r].collectives, 6u); // figures.py: gloo:all_reduce ranges
    }
    ASSERT_FALSE(view.notes.empty());
    EXPECT_EQ(view.notes.back(), "Rank 0: " + derivedStepsText(ranks[0].trace) + ".");
}

TEST(OnDemandSteps, TraceDiffAlignsOneStepsOperators) {
    const Trace t = readChromeTraceFile(fixture("duration_sgd.json.gz"));
    TraceDiffOptions options;
    options.step_a = 2;
    options.step_b = 3;
    const TraceDiff diff = computeTraceDiff(t, t, options);
    EXPECT_TRUE(diff.per_step);
    EXPECT_EQ(diff.a.steps, kDurationSteps.size());
    EXPECT_EQ(diff.a.step_ns, diff.b.step_ns);
    // Calls per step count the calls in the steps, not those of the
    // iterations the trace cut (figures.py: aten::mm 18 in the steps, 21 in
    // the trace; aten::add_ 24 and 28).
    std::map<std::string, double> calls;
    for (const DiffRow& r : diff.operators)
        calls[r.name] = r.calls_a;
    EXPECT_DOUBLE_EQ(calls["aten::mm"], 3.0);
    EXPECT_DOUBLE_EQ(calls["aten::add_"], 4.0);
    const AlignedStep& a = diff.alignment.a;
    EXPECT_EQ(a.label, "2");
    EXPECT_EQ(a.start_ns, kDurationSteps[2].start_ns);
    EXPECT_EQ(a.end_ns, kDurationSteps[2].end_ns);
    EXPECT_EQ(diff.alignment.b.label, "3");
    // The step's own top-level calls only: forward, loss, zero_grad,
    // backward and the optimizer step, each starting inside the step.
    ASSERT_FALSE(a.ops.empty());
    for (const AlignedOp& op : a.ops) {
        EXPECT_GE(op.start_ns, 0) << op.name;
        EXPECT_LT(op.start_ns, a.durationNs()) << op.name;
    }
    EXPECT_EQ(a.ops.back().name, "Optimizer.step#SGD.step");
    EXPECT_EQ(a.ops.back().end_ns, a.durationNs());
}

// A small hand-made Kineto trace around the rule's edges.
std::string trace(const std::string& events) {
    return R"json({"schemaVersion": 1, "traceEvents": [
      {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 0, "dur": 1000},
      {"ph": "i", "s": "g", "name": "Iteration Start: PyTorch Profiler", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 0},
      )json" +
           events + "]}";
}

std::string range(const std::string& cat, const std::string& name, int tid, int ts, int dur) {
    return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": 1, "tid": )" +
           std::to_string(tid) + R"(, "ts": )" + std::to_string(ts) + R"(, "dur": )" +
           std::to_string(dur) + "}";
}

// Kineto's copy of an optimizer step on the GPU stream.
std::string gpuCopy(int ts) {
    return R"({"ph": "X", "cat": "gpu_user_annotation", "name": "Optimizer.step#AdamW.step",
               "pid": 0, "tid": "stream 7", "ts": )" +
           std::to_string(ts) + R"(, "dur": 5})";
}

void expectMarks(const Trace& t, const std::vector<StepMark>& expected) {
    ASSERT_EQ(t.steps.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(t.steps[i].step, expected[i].step) << i;
        EXPECT_EQ(t.steps[i].start_ns, expected[i].start_ns) << i;
        EXPECT_EQ(t.steps[i].end_ns, expected[i].end_ns) << i;
    }
}

TEST(OnDemandSteps, TracesWithProfilerStepsKeepThem) {
    const Trace t =
        parseChromeTrace(trace(range("user_annotation", "ProfilerStep#3", 1, 100, 300) + "," +
                               range("user_annotation", "Optimizer.step#SGD.step", 1, 350, 40) +
                               "," + range("user_annotation", "ProfilerStep#4", 1, 400, 300) + "," +
                               range("user_annotation", "Optimizer.step#SGD.step", 1, 650, 40)),
                         "profiler_steps.json");
    expectMarks(t, {{3, 100000, 400000}, {4, 400000, 700000}});
    EXPECT_EQ(t.steps_from, "");
    EXPECT_EQ(derivedStepsText(t), "");
    EXPECT_TRUE(t.notes.empty());
}

TEST(OnDemandSteps, OneOptimizerStepMakesNoStep) {
    const Trace t =
        parseChromeTrace(trace(range("cpu_op", "aten::mm", 1, 100, 50) + "," +
                               range("user_annotation", "Optimizer.step#SGD.step", 1, 200, 40)),
                         "one.json");
    EXPECT_TRUE(t.steps.empty());
    EXPECT_EQ(t.steps_from, "");
    EXPECT_TRUE(t.notes.empty());
    // The Overview's one step over the CPU's work, as before.
    EXPECT_EQ(analyzeGpuTrace(t).overview.steps.size(), 1u);
}

TEST(OnDemandSteps, OutermostRangesOfTheBusiestThreadOnly) {
    // Thread 1 steps a wrapper optimizer around AdamW three times (once per
    // iteration; five ranges counting the inner ones); thread 2 steps twice;
    // the GPU's five copies (gpu_user_annotation on a stream) are no steps.
    const Trace t = parseChromeTrace(
        trace(range("user_annotation", "Optimizer.step#ZeroRedundancyOptimizer.step", 1, 100, 50) +
              "," + range("user_annotation", "Optimizer.step#AdamW.step", 1, 110, 30) + "," +
              range("user_annotation", "Optimizer.step#ZeroRedundancyOptimizer.step", 1, 300, 50) +
              "," + range("user_annotation", "Optimizer.step#AdamW.step", 1, 310, 30) + "," +
              range("user_annotation", "Optimizer.step#ZeroRedundancyOptimizer.step", 1, 500, 60) +
              "," + range("user_annotation", "Optimizer.step#AdamW.step", 2, 120, 10) + "," +
              range("user_annotation", "Optimizer.step#AdamW.step", 2, 600, 10) + "," +
              gpuCopy(150) + "," + gpuCopy(400) + "," + gpuCopy(650) + "," + gpuCopy(700) + "," +
              gpuCopy(750)),
        "nested.json");
    EXPECT_EQ(t.steps_from, "Optimizer.step#ZeroRedundancyOptimizer.step");
    expectMarks(t, {{0, 150000, 350000}, {1, 350000, 560000}});
}

} // namespace ts::ondemand_steps_test
