// writeProfileOutputs(): the profiling files of a run directory and the
// summary that goes into run.json.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "ModelTestSupport.h"
#include "ProfTestSupport.h"
#include "report/RunProfileWriter.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

using test::addEvent;

ProfileCapture capture(int window) {
    ProfileCapture c;
    c.window = window;
    c.first_step = 4;
    c.last_step = 5;
    Trace& t = c.trace;
    t.source = "trainscope";
    t.steps = {StepMark{4, 0, 1000}, StepMark{5, 1000, 2000}};
    for (int step = 0; step < 2; ++step) {
        const int64_t base = step * 1000;
        addEvent(t, "forward", EventKind::Annotation, base + 100, 400);
        const auto mm = addEvent(t, "aten::mm", EventKind::Operator, base + 150, 300);
        t.events.edit(size_t(mm), [](TraceEvent& e) { e.flops = 3e6; });
        addEvent(t, "backward", EventKind::Annotation, base + 500, 300);
        for (int i = 0; i < 12; ++i)
            addEvent(t, "aten::op" + std::to_string(i), EventKind::Operator, base + 510 + 20 * i,
                     10 + i);
    }
    t.memory = {MemorySample{160, 4096, 4096, 1}, MemorySample{900, 1024, -3072, -1}};
    t.notes.push_back("a note");
    t.finalize();
    return c;
}

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ProfRunOutputs, WritesOpsTraceAndMemoryFilesAndASummary) {
    const auto dir = test::freshTempDir("run_outputs");
    const ProfileCapture cap = capture(0);
    const nlohmann::json summary = writeProfileOutputs(cap, dir);
    for (const char* f : {"ops.csv", "trace.json", "memory.csv"})
        EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
    EXPECT_EQ(summary["files"]["trace"], "trace.json");
    const std::string ops = slurp(dir / "ops.csv");
    EXPECT_EQ(ops.rfind("name,input_shapes,backward,calls,self_cpu_ns", 0), 0u);
    EXPECT_NE(ops.find("\naten::mm,,0,2,"), std::string::npos);
    const std::string memory = slurp(dir / "memory.csv");
    EXPECT_EQ(memory, "t_ms,live_bytes,delta_bytes,op\n0.000160,4096,4096,aten::mm\n"
                      "0.000900,1024,-3072,\n");
    EXPECT_EQ(readChromeTraceFile(dir / "trace.json").events.size(), cap.trace.events.size());

    EXPECT_EQ(summary["window"], 0);
    EXPECT_EQ(summary["first_step"], 4);
    EXPECT_EQ(summary["steps"], 2);
    EXPECT_EQ(summary["peak_memory_bytes"], 4096);
    ASSERT_EQ(summary["top_ops"].size(), 10u);
    EXPECT_EQ(summary["top_ops"][0]["name"], "aten::mm");
    EXPECT_DOUBLE_EQ(summary["top_ops"][0]["self_cpu_ms"].get<double>(), 600e-6);
    const auto& mean = summary["breakdown"]["mean"];
    EXPECT_DOUBLE_EQ(mean["step_ms"].get<double>(), 1000e-6);
    EXPECT_DOUBLE_EQ(mean["forward_ms"].get<double>(), 400e-6);
    EXPECT_DOUBLE_EQ(mean["backward_ms"].get<double>(), 300e-6);
    EXPECT_DOUBLE_EQ(summary["flops"]["forward_gflops"].get<double>(), 6e-3);
    EXPECT_EQ(summary["notes"][0], "a note");
    std::filesystem::remove_all(dir);
}

TEST(ProfRunOutputs, LaterWindowsGetNumberedFiles) {
    const auto dir = test::freshTempDir("run_outputs_window");
    const nlohmann::json summary = writeProfileOutputs(capture(2), dir);
    for (const char* f : {"ops_2.csv", "trace_2.json", "memory_2.csv"})
        EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
    EXPECT_FALSE(std::filesystem::exists(dir / "trace.json"));
    EXPECT_EQ(summary["files"]["ops"], "ops_2.csv");
    std::filesystem::remove_all(dir);
}

TEST(ProfRunOutputs, UnwritableDirectoryThrowsNamingTheFile) {
    const auto dir = test::freshTempDir("run_outputs_bad") / "missing" / "deeper";
    try {
        writeProfileOutputs(capture(0), dir);
        FAIL() << "expected an exception";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("ops.csv"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace ts
