// Chrome trace export: structure of the file, and export -> import giving
// the same operator table.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "ModelTestSupport.h"
#include "ProfTestSupport.h"
#include "analysis/OpStats.h"
#include "analysis/OpTableFormat.h"
#include "profiling/MemoryTracker.h"
#include "profiling/ProfileSession.h"
#include "trace/ChromeTraceReader.h"
#include "trace/ChromeTraceWriter.h"

namespace ts {
namespace {

// Two profiled training steps of a small conv net, with memory.
ProfileCapture profiledTraining() {
    torch::manual_seed(0);
    auto conv = torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).padding(1));
    auto bn = torch::nn::BatchNorm2d(8);
    auto fc = torch::nn::Linear(8 * 4 * 4, 10);
    auto tracker = MemoryTracker::create();
    MemoryTracker::Scope scope(tracker);
    ProfileSession session(test::profileConfig(0, 2), false, tracker);
    test::CaptureObserver observer;
    for (int64_t step = 0; step < 2; ++step) {
        session.stepBegin(step);
        torch::Tensor loss;
        {
            ProfileSession::Range range(&session, "forward");
            torch::Tensor x = torch::randn({4, 3, 8, 8});
            torch::Tensor y = torch::max_pool2d(torch::relu(bn(conv(x))), 2);
            loss =
                torch::nn::functional::cross_entropy(fc(y.flatten(1)), torch::randint(0, 10, {4}));
        }
        {
            ProfileSession::Range range(&session, "backward");
            loss.backward();
        }
        session.stepEnd(step, observer);
    }
    session.finish(observer);
    if (observer.captures.size() != 1) throw std::runtime_error("expected one capture");
    return observer.captures[0];
}

std::string exported(const Trace& trace, const ChromeTraceWriteOptions& options = {}) {
    std::ostringstream out;
    writeChromeTrace(trace, out, options);
    return out.str();
}

void expectSameTables(const OpTable& a, const OpTable& b) {
    ASSERT_EQ(a.rows.size(), b.rows.size());
    EXPECT_EQ(a.total_self_cpu_ns, b.total_self_cpu_ns);
    for (size_t i = 0; i < a.rows.size(); ++i) {
        const OpStat &x = a.rows[i], &y = b.rows[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.shapes, y.shapes);
        EXPECT_EQ(x.backward, y.backward) << x.name;
        EXPECT_EQ(x.calls, y.calls) << x.name;
        EXPECT_EQ(x.self_cpu_ns, y.self_cpu_ns) << x.name;
        EXPECT_EQ(x.cpu_total_ns, y.cpu_total_ns) << x.name;
        EXPECT_EQ(x.cpu_mem_bytes, y.cpu_mem_bytes) << x.name;
        EXPECT_EQ(x.self_cpu_mem_bytes, y.self_cpu_mem_bytes) << x.name;
        EXPECT_DOUBLE_EQ(x.flops, y.flops) << x.name;
        EXPECT_DOUBLE_EQ(x.bytes, y.bytes) << x.name;
    }
}

TEST(TraceChromeRoundTrip, ExportedFileHasTheViewerStructure) {
    const ProfileCapture cap = profiledTraining();
    const nlohmann::json j = nlohmann::json::parse(exported(cap.trace));
    ASSERT_TRUE(j["traceEvents"].is_array());
    std::map<std::string, int> phases;
    bool thread_name = false, bound_flow = false, memory_counter = false, shapes = false;
    for (const auto& e : j["traceEvents"]) {
        const std::string ph = e["ph"];
        phases[ph]++;
        thread_name = thread_name || (ph == "M" && e["name"] == "thread_name");
        bound_flow = bound_flow || (ph == "f" && e["bp"] == "e" && e["cat"] == "fwdbwd");
        memory_counter = memory_counter || (ph == "C" && e["args"].contains("live_bytes"));
        if (ph == "X" && e["name"] == "aten::conv2d")
            shapes = e["args"]["Input Dims"][0] == nlohmann::json({4, 3, 8, 8}) &&
                     e["args"].contains("Sequence number");
    }
    EXPECT_GT(phases["X"], 50);
    EXPECT_EQ(phases["s"], phases["f"]);
    EXPECT_GT(phases["s"], 5);
    EXPECT_TRUE(thread_name);
    EXPECT_TRUE(bound_flow);
    EXPECT_TRUE(memory_counter);
    EXPECT_TRUE(shapes);
    EXPECT_EQ(j["trainscope"]["source"], "trainscope");
}

TEST(TraceChromeRoundTrip, ExportThenImportGivesTheSameTables) {
    const ProfileCapture cap = profiledTraining();
    const Trace back = parseChromeTrace(exported(cap.trace), "roundtrip.json");
    EXPECT_EQ(back.source, "trainscope");
    EXPECT_EQ(back.events.size(), cap.trace.events.size());
    ASSERT_EQ(back.steps.size(), 2u);
    EXPECT_EQ(back.steps[1].step, cap.trace.steps[1].step);
    EXPECT_EQ(back.steps[1].end_ns, cap.trace.steps[1].end_ns);
    EXPECT_EQ(back.origin_ns, cap.trace.origin_ns);
    EXPECT_EQ(back.memory.size(), cap.trace.memory.size());
    EXPECT_EQ(back.lanes[back.events[0].lane].name, cap.trace.lanes[cap.trace.events[0].lane].name);
    for (OpGrouping g : {OpGrouping::Name, OpGrouping::NameAndShapes})
        for (OpScope s : {OpScope::All, OpScope::Forward, OpScope::Backward})
            expectSameTables(computeOpStats(cap.trace, g, s), computeOpStats(back, g, s));
    int links = 0, links_back = 0;
    for (const TraceEvent& e : cap.trace.events)
        links += e.link >= 0;
    for (const TraceEvent& e : back.events)
        links_back += e.link >= 0;
    EXPECT_GT(links, 0);
    EXPECT_EQ(links, links_back);
}

TEST(TraceChromeRoundTrip, FileRoundTripThroughDisk) {
    const ProfileCapture cap = profiledTraining();
    const auto dir = test::freshTempDir("trace_roundtrip");
    writeChromeTraceFile(cap.trace, dir / "trace.json");
    const Trace back = readChromeTraceFile(dir / "trace.json");
    expectSameTables(computeOpStats(cap.trace), computeOpStats(back));
    std::filesystem::remove_all(dir);
}

TEST(TraceChromeRoundTrip, CappedExportKeepsTheEarliestEventsAndSaysSo) {
    const ProfileCapture cap = profiledTraining();
    ChromeTraceWriteOptions options;
    options.max_events = 20;
    const std::string text = exported(cap.trace, options);
    const Trace back = parseChromeTrace(text, "capped.json");
    EXPECT_EQ(back.events.size(), 20u);
    ASSERT_FALSE(back.notes.empty());
    EXPECT_NE(back.notes.back().find("truncated to 20 of"), std::string::npos);
    EXPECT_NE(text.find("\"NOTE: trace file truncated"), std::string::npos); // visible in viewers
}

} // namespace
} // namespace ts
