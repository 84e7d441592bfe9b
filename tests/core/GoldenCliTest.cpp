// Golden files of what the built trainscope-cli prints, run as a user would.
// Fixed inputs where the command allows it (a checked-in trace, a model
// description, the shipped presets, a constructed run directory); a training
// run's `--json` is masked (GoldenMask.h) where its figures vary.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "CliRunner.h"
#include "CompareTestSupport.h"
#include "EngineTestSupport.h"
#include "GoldenFile.h"
#include "GoldenMask.h"
#include "TestPaths.h"

namespace {

using ts::test::applyMasks;
using ts::test::expectMatchesGolden;

// The repository root: commands name files relative to it, as in the docs.
std::string sourceRoot() {
    return std::filesystem::path(TRAINSCOPE_TEST_DATA_DIR).parent_path().parent_path().string();
}

// stdout of `trainscope-cli args` run from the repository root; fails the test
// on a non-zero exit.
std::string cliOutput(const std::string& args) {
    const auto r = ts::test::runCliStdoutIn(sourceRoot(), args);
    EXPECT_EQ(r.code, 0) << "trainscope-cli " << args << "\n" << r.output;
    return r.output;
}

const std::string kSampleTrace = "tests/data/torch_profiler_sample.json";

} // namespace

TEST(GoldenCli, TraceStatsText) {
    expectMatchesGolden("cli/trace-stats.txt", cliOutput("trace-stats " + kSampleTrace));
}

TEST(GoldenCli, TraceStatsCsv) {
    expectMatchesGolden("cli/trace-stats.csv",
                        cliOutput("trace-stats " + kSampleTrace + " --format csv"));
}

TEST(GoldenCli, TraceStatsJson) {
    expectMatchesGolden("cli/trace-stats.json",
                        cliOutput("trace-stats " + kSampleTrace + " --format json"));
}

TEST(GoldenCli, Presets) {
    expectMatchesGolden("cli/presets.txt", cliOutput("presets"));
}

TEST(GoldenCli, ModelInfoJson) {
    expectMatchesGolden(
        "cli/model-info-resnet18-cifar.json",
        cliOutput("model-info --model resnet18 --stem cifar --input-size 32 --num-classes 10 "
                  "--json"));
}

TEST(GoldenCli, AdviseJsonOfAConstructedRun) {
    // A run waiting 30 of every 100 ms for data; its temp path is masked.
    const auto run = ts::test::writeCompareRun("slowdata", 32, 200, 30, true);
    expectMatchesGolden(
        "cli/advise.json",
        applyMasks(cliOutput("advise '" + run.string() + "' --json"), ts::test::volatileMasks()));
}

TEST(GoldenCli, RunJsonMasked) {
    // Three steps of ResNet-18 on 16x16 synthetic images (~2 s). Timings,
    // memory, loss and accuracy vary between runs and machines: masked. What
    // is left is the shape of the summary and the step and epoch counts.
    const auto out = ts::test::freshDir("golden_run");
    const std::string args =
        "run --preset synthetic-smoke --set max_steps=3 --set val_max_steps=1 "
        "--set synthetic_samples=64 --set image_size=16 --set batch_size=8 --set threads=1 "
        "--no-progress --json --out '" +
        (out / "run").string() + "'";
    auto masks = ts::test::volatileMasks();
    masks.push_back(ts::test::maskJsonValues("[a-z_]*(?:loss|accuracy)", "measured"));
    expectMatchesGolden("cli/run-synthetic-smoke.json", applyMasks(cliOutput(args), masks));
}
