// Importing torch.profiler traces (Kineto and legacy forms, checked-in samples
// and, with /usr/bin/python3 + torch, freshly exported ones) and refusing
// malformed files with errors that name them.
#include <gtest/gtest.h>

#include <fstream>

#include <zlib.h>

#include "ModelTestSupport.h"
#include "ProfTestSupport.h"
#include "TestPaths.h"
#include "analysis/OpStats.h"
#include "analysis/StepBreakdown.h"
#include "trace/ChromeTraceReader.h"
#include "trace/FlopModel.h"

namespace ts {
namespace {

using test::findEvent;

std::filesystem::path sample(const std::string& name) {
    return std::filesystem::path(TRAINSCOPE_TEST_DATA_DIR) / name;
}

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void spill(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// What every import of the tiny conv net's training steps must show.
void expectTrainingOps(const Trace& t) {
    const OpTable table = computeOpStats(t);
    auto has = [&](const std::string& name) {
        return std::any_of(table.rows.begin(), table.rows.end(),
                           [&](const OpStat& r) { return r.name == name; });
    };
    for (const char* op : {"aten::conv2d", "aten::batch_norm", "aten::max_pool2d", "aten::linear",
                           "ConvolutionBackward0", "forward", "backward"})
        EXPECT_TRUE(has(op)) << op;
    const auto conv = findEvent(t, "aten::conv2d");
    ASSERT_GE(conv, 0);
    EXPECT_EQ(t.events[conv].kind, EventKind::Operator);
    EXPECT_EQ(t.events[findEvent(t, "ConvolutionBackward0")].kind, EventKind::Backward);
    EXPECT_EQ(t.events[findEvent(t, "forward")].kind, EventKind::Annotation);
    EXPECT_GT(table.total_self_cpu_ns, 0);
}

void expectKinetoDetails(const Trace& t) {
    EXPECT_EQ(t.source, "torch.profiler (kineto)");
    ASSERT_EQ(t.steps.size(), 2u); // ProfilerStep#0 and #1
    EXPECT_EQ(t.steps[1].step, 1);
    const auto conv = findEvent(t, "aten::conv2d");
    EXPECT_EQ(t.shapesOf(t.events[conv]), "[[4, 3, 8, 8], [8, 3, 3, 3], [8], [], [], [], []]");
    const auto node = findEvent(t, "ConvolutionBackward0");
    EXPECT_EQ(t.events[node].link, conv);
    EXPECT_EQ(t.events[conv].link, node);
    // [memory] instants are kept (once: no CPU samples beside them) and give
    // the op that ran its self memory.
    ASSERT_FALSE(t.kineto.memory.empty());
    EXPECT_TRUE(t.memory.empty());
    const OpTable table = computeOpStats(t);
    int64_t self_mem = 0;
    for (const OpStat& r : table.rows)
        self_mem += r.self_cpu_mem_bytes != 0;
    EXPECT_GT(self_mem, 3);
    const StepBreakdown b = computeStepBreakdown(t);
    ASSERT_EQ(b.steps.size(), 2u);
    EXPECT_GT(b.steps[0].phases.forward_ms, 0);
    EXPECT_GT(b.steps[0].phases.backward_ms, 0);
    EXPECT_GT(b.steps[0].phases.optimizer_ms, 0);
}

TEST(TraceImport, CheckedInKinetoSample) {
    Trace t = readChromeTraceFile(sample("torch_profiler_sample.json"));
    expectTrainingOps(t);
    expectKinetoDetails(t);
    // FLOPs from the recorded dims: addmm of the linear head; the conv
    // backward reads its output size from grad_output.
    annotateCosts(t);
    double addmm = 0, conv_backward = 0;
    for (const TraceEvent& e : t.events) {
        if (t.nameOf(e) == "aten::addmm" && e.flops > 0) addmm = e.flops;
        if (t.nameOf(e) == "aten::convolution_backward") conv_backward = e.flops;
    }
    EXPECT_DOUBLE_EQ(addmm, 2.0 * 4 * 128 * 10);
    EXPECT_DOUBLE_EQ(conv_backward, 2.0 * 2 * 4 * 8 * 8 * 8 * 3 * 3 * 3);
}

TEST(TraceImport, CheckedInLegacyListSample) {
    const Trace t = readChromeTraceFile(sample("torch_profiler_legacy_sample.json"));
    EXPECT_EQ(t.source, "torch.profiler (legacy)");
    expectTrainingOps(t);
    EXPECT_TRUE(t.steps.empty() || t.steps.size() == 1u);
}

TEST(TraceImport, FreshlyExportedByPythonTorchProfiler) {
    if (!test::pythonTorchAvailable()) GTEST_SKIP() << "/usr/bin/python3 with torch is absent";
    const auto dir = test::freshTempDir("torch_export");
    const std::string cmd = "/usr/bin/python3 '" + sample("torch_profiler_samples.py").string() +
                            "' '" + (dir / "legacy.json").string() + "' '" +
                            (dir / "kineto.json").string() + "' >'" + (dir / "log").string() +
                            "' 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(dir / "log");
    expectTrainingOps(readChromeTraceFile(dir / "legacy.json"));
    const Trace kineto = readChromeTraceFile(dir / "kineto.json");
    expectTrainingOps(kineto);
    expectKinetoDetails(kineto);
    std::filesystem::remove_all(dir);
}

TEST(TraceImport, ExactNanosecondsFromAbsoluteMicrosecondTimestamps) {
    const Trace t = parseChromeTrace(R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::outer", "pid": 1, "tid": "7",
         "ts": 1700000000000000.123, "dur": 0.9},
        {"ph": "X", "cat": "cpu_op", "name": "aten::inner", "pid": 1, "tid": "7",
         "ts": 1700000000000000.124, "dur": 0.5},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7,
         "ts": 1700000000000000.2, "dur": 2, "args": {"External id": 1}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": "7", "args": {"name": "main"}}
    ]})",
                                     "exact.json");
    const auto outer = findEvent(t, "aten::outer"), inner = findEvent(t, "aten::inner");
    EXPECT_EQ(t.events[outer].start_ns, 0);
    EXPECT_EQ(t.events[outer].dur_ns, 900);
    EXPECT_EQ(t.events[inner].start_ns, 1);
    EXPECT_EQ(t.events[inner].parent, outer);
    EXPECT_EQ(t.origin_ns, 1700000000000000123);
    EXPECT_EQ(t.lanes[t.events[outer].lane].name, "main");
    EXPECT_TRUE(t.lanes[t.events[findEvent(t, "gemm")].lane].device);
}

TEST(TraceImport, KernelTimeGoesToTheLaunchingOpAndItsParents) {
    const Trace t = parseChromeTrace(R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 0, "dur": 50,
         "args": {"External id": 1}},
        {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 5, "dur": 40,
         "args": {"External id": 2}},
        {"ph": "X", "cat": "kernel", "name": "sgemm", "pid": 0, "tid": 7, "ts": 20, "dur": 30,
         "args": {"External id": 2}}
    ]})",
                                     "kernels.json");
    const OpTable table = computeOpStats(t);
    for (const OpStat& r : table.rows) {
        if (r.name == "aten::linear") {
            EXPECT_EQ(r.device_total_ns, 30000);
            EXPECT_EQ(r.self_device_ns, 0);
        }
        if (r.name == "aten::addmm" || r.name == "sgemm") {
            EXPECT_EQ(r.self_device_ns, 30000) << r.name;
        }
    }
}

TEST(TraceImport, GzipCompressedTrace) {
    const auto dir = test::freshTempDir("trace_gz");
    const auto path = dir / "trace.json.gz";
    const std::string text = slurp(sample("torch_profiler_legacy_sample.json"));
    gzFile f = gzopen(path.string().c_str(), "wb");
    ASSERT_NE(f, nullptr);
    gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
    gzclose(f);
    expectTrainingOps(readChromeTraceFile(path));
    std::filesystem::remove_all(dir);
}

void expectError(const std::filesystem::path& path, const std::string& fragment) {
    try {
        readChromeTraceFile(path);
        FAIL() << "expected TraceReadError for " << path;
    } catch (const TraceReadError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path.string()), std::string::npos) << what;
        EXPECT_NE(what.find(fragment), std::string::npos) << what;
    }
}

TEST(TraceImport, MalformedFilesGiveClearErrorsNamingTheFile) {
    const auto dir = test::freshTempDir("trace_bad");
    const std::string good = slurp(sample("torch_profiler_sample.json"));
    spill(dir / "empty.json", "  \n");
    spill(dir / "truncated.json", good.substr(0, good.size() / 2));
    spill(dir / "garbage.json", "this is not json");
    spill(dir / "number.json", "42");
    spill(dir / "object.json", R"({"name": "not a trace"})");
    spill(dir / "no_events.json", R"({"traceEvents": []})");
    spill(dir / "bad.json.gz", "\x1f\x8b\x08 truncated gzip");
    expectError(dir / "empty.json", "empty");
    expectError(dir / "truncated.json", "not valid JSON at byte");
    expectError(dir / "truncated.json", "truncated");
    expectError(dir / "garbage.json", "not valid JSON at byte");
    expectError(dir / "number.json", "not a Chrome trace");
    expectError(dir / "object.json", "not a Chrome trace");
    expectError(dir / "no_events.json", "no trace events");
    expectError(dir / "missing.json", "no such trace file");
    expectError(dir / "bad.json.gz", "gzip");
    std::filesystem::remove_all(dir);
}

TEST(TraceImport, OddEventsAreSkippedWithANote) {
    const Trace t = parseChromeTrace(R"([
        {"ph": "X", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1, "dur": 2},
        {"ph": "X", "name": "no_ts", "pid": 1, "tid": 1},
        {"ph": "X", "name": 12, "ts": 3},
        {"ph": "X", "name": "aten::mul", "pid": 1, "tid": 1, "ts": "late", "dur": 1},
        {"ph": "B", "name": "begin", "ts": 4},
        {"ph": "X", "cat": "python_function", "name": "model.py(12): forward", "ts": 0, "dur": 9},
        {"ph": "X", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 5, "dur": 1,
         "args": {"Input Dims": "not a list", "Sequence number": "x"}},
        7, "text", null
    ])",
                                     "odd.json");
    EXPECT_EQ(t.events.size(), 2u);
    std::string notes;
    for (const std::string& n : t.notes)
        notes += n + "\n";
    EXPECT_NE(notes.find("6 malformed trace events skipped"), std::string::npos) << notes;
    EXPECT_NE(notes.find("1 begin/end"), std::string::npos) << notes;
    EXPECT_NE(notes.find("1 python_function"), std::string::npos) << notes;
}

} // namespace
} // namespace ts
