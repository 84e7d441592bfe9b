// A profiled run through the CLI: where LibTorch has Kineto (the PyPI wheels)
// the run directory's trace.json is Kineto's own file and every trace view
// reads it; where it has none (Debian's 1.13) Trainscope's collector records
// and run.json says why.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "CliRunner.h"
#include "EngineTestSupport.h"
#include "profiling/KinetoRecorder.h"

namespace ts {
namespace {

const char* kProfiledRun =
    "run --preset synthetic-smoke --set synthetic_samples=64 --set image_size=16 "
    "--set batch_size=8 --set max_steps=5 --set val_every=0 --set threads=1 "
    "--set profile.enabled=true --set profile.warmup=1 --set profile.active=2 "
    "--no-progress --json --out ";

nlohmann::json runJson(const std::filesystem::path& dir) {
    std::ifstream in(dir / "run.json");
    return nlohmann::json::parse(in);
}

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(KinetoRun, TheRunsTraceIsKinetosAndOpensInTheTraceViews) {
    std::string why;
    if (!KinetoRecorder::available(&why)) GTEST_SKIP() << why;
    const auto dir = test::freshDir("kineto_run");
    const auto r = test::runCli(kProfiledRun + dir.string());
    ASSERT_EQ(r.code, 0) << r.output;
    const auto run = runJson(dir);
    ASSERT_EQ(run["profile"].size(), 1u) << run.dump(1);
    const auto& window = run["profile"][0];
    EXPECT_EQ(window["recorder"], "kineto");
    EXPECT_EQ(window["steps"], 2);
    const std::string trace = slurp(dir / "trace.json");
    EXPECT_NE(trace.find("\"traceEvents\""), std::string::npos);
    EXPECT_NE(trace.find("ProfilerStep#1"), std::string::npos);
    EXPECT_NE(trace.find("aten::convolution"), std::string::npos);
    EXPECT_NE(trace.find("\"[memory]\""), std::string::npos);
    EXPECT_GT(window["breakdown"]["mean"]["forward_ms"].get<double>(), 0) << window.dump(1);
    EXPECT_GT(window["peak_memory_bytes"].get<int64_t>(), 1 << 20) << window.dump(1);
    const std::string memory = slurp(dir / "memory.csv");
    EXPECT_GT(std::count(memory.begin(), memory.end(), '\n'), 100) << memory.substr(0, 400);
    EXPECT_GT(window["flops"]["forward_gflops"].get<double>(), 0) << window.dump(1);
    const auto stats =
        test::runCli("trace-stats " + (dir / "trace.json").string() + " --view overview");
    EXPECT_EQ(stats.code, 0) << stats.output;
    EXPECT_NE(stats.output.find("Overview: 2 steps"), std::string::npos) << stats.output;
}

TEST(KinetoRun, WithoutKinetoRunJsonSaysWhoRecorded) {
    std::string why;
    if (KinetoRecorder::available(&why)) GTEST_SKIP() << "this LibTorch has Kineto";
    const auto dir = test::freshDir("kineto_absent_run");
    const auto r = test::runCli(kProfiledRun + dir.string() + " --set profile.recorder=kineto");
    ASSERT_EQ(r.code, 0) << r.output;
    const auto run = runJson(dir);
    ASSERT_EQ(run["profile"].size(), 1u);
    EXPECT_EQ(run["profile"][0]["recorder"], "trainscope");
    EXPECT_NE(run["messages"].dump().find("without Kineto"), std::string::npos)
        << run["messages"].dump();
}

} // namespace
} // namespace ts
