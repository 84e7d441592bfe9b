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

// `resume` takes the run directory a user naturally passes; a garbage
// checkpoint is named in plain words (no LibTorch frames) and the refused run
// leaves no directory behind.
TEST(Cli, ResumeTakesARunDirectoryAndAGarbageCheckpointLeavesNothing) {
    namespace fs = std::filesystem;
    const auto first = ts::test::freshDir("cli_resume_first");
    ASSERT_EQ(cli(std::string("run ") + kTiny + " --set epochs=2 --set checkpoint_every=1" +
                  " --no-progress --out " + first.string())
                  .code,
              0);
    const auto next = ts::test::freshDir("cli_resume_next");
    fs::remove(next);
    const auto r =
        cli(std::string("run ") + kTiny + " --set epochs=3 --set resume=" + first.string() +
            " --no-progress --out " + next.string());
    ASSERT_EQ(r.code, 0) << r.output;
    std::ifstream in(next / "run.json");
    const auto run = nlohmann::json::parse(in);
    EXPECT_EQ(run["start_epoch"], 2); // from final.pt, the newest of final, epoch_1, epoch_2
    EXPECT_EQ(run["summary"]["steps_completed"], 3);
    EXPECT_NE(run["messages"].dump().find("resumed from " + (first / "final.pt").string()),
              std::string::npos)
        << run["messages"].dump();

    const auto garbage = ts::test::freshDir("cli_resume_garbage") / "final.pt";
    std::ofstream(garbage) << std::string(4000, '\x5a');
    const auto refused = ts::test::freshDir("cli_resume_refused");
    fs::remove(refused);
    const auto bad = cli(std::string("run ") + kTiny + " --set resume=" + garbage.string() +
                         " --no-progress --out " + refused.string());
    EXPECT_EQ(bad.code, 2) << bad.output;
    EXPECT_NE(bad.output.find(garbage.string() + ": not a readable checkpoint"), std::string::npos)
        << bad.output;
    EXPECT_EQ(bad.output.find("Exception raised from"), std::string::npos) << bad.output;
    EXPECT_EQ(bad.output.find("frame #"), std::string::npos) << bad.output;
    EXPECT_FALSE(fs::exists(refused)) << "a refused run left its directory";
    // Into a directory that existed before: only what the run had opened goes.
    fs::create_directories(refused);
    std::ofstream(refused / "mine.txt") << "kept";
    EXPECT_EQ(cli(std::string("run ") + kTiny + " --set resume=" + garbage.string() +
                  " --no-progress --out " + refused.string())
                  .code,
              2);
    EXPECT_TRUE(fs::exists(refused / "mine.txt"));
    EXPECT_FALSE(fs::exists(refused / "steps.csv"));
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
