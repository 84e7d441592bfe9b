// trainscope-cli as a user runs it: exit codes, messages, run directories.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "CliRunner.h"
#include "EngineTestSupport.h"

namespace {

using Result = ts::test::CliResult;

Result cli(const std::string& args) {
    return ts::test::runCli(args);
}

const char* kTiny =
    "--preset synthetic-smoke --set synthetic_samples=48 --set image_size=16 --set batch_size=8 "
    "--set max_steps=3 --set val_max_steps=2 --set threads=1";

} // namespace

TEST(Cli, RunWritesTheRunDirectory) {
    const auto dir = ts::test::freshDir("cli_run");
    const auto r = cli(std::string("run ") + kTiny + " --no-progress --json --out " + dir.string());
    ASSERT_EQ(r.code, 0) << r.output;
    for (const char* file : {"run.json", "steps.csv", "final.pt"})
        EXPECT_TRUE(std::filesystem::exists(dir / file)) << file;
    std::ifstream in(dir / "run.json");
    const auto run = nlohmann::json::parse(in);
    EXPECT_EQ(run["summary"]["status"], "completed");
    EXPECT_EQ(run["summary"]["steps_completed"], 3);
    EXPECT_GT(run["summary"]["median_images_per_sec"].get<double>(), 0);
    EXPECT_TRUE(run["environment"].contains("blas"));

    const auto eval = cli(std::string("evaluate ") + kTiny + " --weights " +
                          (dir / "final.pt").string() + " --json");
    ASSERT_EQ(eval.code, 0) << eval.output;
    EXPECT_NE(eval.output.find("\"accuracy\""), std::string::npos);
}

TEST(Cli, InterruptStopsTheRunAndKeepsWhatWasMeasured) {
    const auto dir = ts::test::freshDir("cli_interrupt");
    const auto r = ts::test::interruptCliWhen(
        std::string("run ") + kTiny + " --set max_steps=0 --set synthetic_samples=4000" +
            " --no-progress --out " + dir.string(),
        (dir / "steps.csv").string(), 3);
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("interrupted"), std::string::npos) << r.output;
    std::ifstream in(dir / "run.json");
    const auto run = nlohmann::json::parse(in);
    EXPECT_EQ(run["summary"]["status"], "cancelled") << run["summary"].dump();
    const int64_t steps = run["summary"]["steps_completed"];
    EXPECT_GE(steps, 2);
    EXPECT_LT(steps, 500); // 4000 / 8 steps were planned
}

TEST(Cli, InterruptStopsASweepAndKeepsItsReport) {
    const auto dir = ts::test::freshDir("cli_sweep_interrupt");
    const auto r = ts::test::interruptCliWhen(
        std::string("sweep ") + kTiny +
            " --set synthetic_samples=8000 --key batch_size --values 8,16 --steps 400 --warmup 1"
            " --no-progress --out " +
            dir.string(),
        (dir / "point_0_batch_size=8" / "steps.csv").string(), 3);
    EXPECT_NE(r.output.find("interrupted"), std::string::npos) << r.output;
    std::ifstream in(dir / "sweep.csv");
    std::ostringstream csv;
    csv << in.rdbuf();
    EXPECT_NE(csv.str().find("not run: cancelled"), std::string::npos) << csv.str();
}

TEST(Cli, BadInputExitsTwoAndNamesTheProblem) {
    struct Case {
        std::string args;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {"run --preset no-such-preset", "no-such-preset"},
        {"run --preset synthetic-smoke --set batchsize=3", "batchsize"},
        {"run --preset synthetic-smoke --set batch_size=0", "batch_size"},
        {"run --preset quickstart --set data_dir=/nonexistent/fmnist", "/nonexistent/fmnist"},
        {"run --preset synthetic-smoke --set precision=fp16", "CUDA"},
        {"run --preset synthetic-smoke --set pretrained=/nonexistent/w.pth", "/nonexistent/w.pth"},
        {"model-info --model resnet101", "resnet101"},
        {"run --config /nonexistent/config.json", "/nonexistent/config.json"},
    };
    for (const auto& c : cases) {
        const auto r = cli(c.args);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.output;
        EXPECT_NE(r.output.find(c.expected), std::string::npos) << c.args << "\n" << r.output;
    }
}

TEST(Cli, MissingCifarFilesAreNamed) {
    const auto dir = ts::test::freshDir("cli_empty_cifar");
    const auto r = cli("run --preset cifar10-cpu-1thread --set data_dir=" + dir.string() +
                       " --no-progress --out " + (dir / "run").string());
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(dir.string()), std::string::npos) << r.output;
}

TEST(Cli, ModelInfoMatchesThePaper) {
    const auto r = cli("model-info --model resnet50 --stem imagenet --input-size 224 --json");
    ASSERT_EQ(r.code, 0) << r.output;
    const auto j = nlohmann::json::parse(r.output);
    EXPECT_EQ(j["total_params"], 25557032);
    EXPECT_NEAR(j["total_macs"].get<double>() / 1e9, 4.11, 0.03);
}

TEST(Cli, EnvAndPresets) {
    const auto env = cli("env --json");
    ASSERT_EQ(env.code, 0) << env.output;
    const auto j = nlohmann::json::parse(env.output);
    EXPECT_FALSE(j["torch_version"].get<std::string>().empty());
    EXPECT_EQ(j["devices"][0]["id"], "cpu");
    const auto presets = cli("presets");
    EXPECT_EQ(presets.code, 0);
    EXPECT_NE(presets.output.find("quickstart"), std::string::npos);
}
