// A loss that turns NaN or infinite: the run stops at that step with the step
// named (nonfinite_loss=stop, the default) or skips the step's update and
// goes on (skip), in one process and agreed by the ranks of a data-parallel job.
#include <cmath>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "CliRunner.h"
#include "EngineTestSupport.h"
#include "TestPaths.h"
#include "report/StepsCsv.h"

namespace {

namespace fs = std::filesystem;
using ts::test::runCli;

// A BatchNorm-free model whose output turns NaN from its fifth training
// forward on (tests/data/models/make_fixtures.py, NanAfter): steps 0-3 are
// finite, step 4 is the first non-finite one.
constexpr size_t kFirstNan = 4;

std::string nanRun(const fs::path& out, const std::string& mode) {
    return "run --preset synthetic-smoke --set model=torchscript --set model_path=" +
           std::string(TRAINSCOPE_TEST_DATA_DIR) +
           "/models/nan_after_script.pt --set synthetic_samples=256 --set image_size=16"
           " --set batch_size=8 --set max_steps=12 --set val_every=0 --set threads=1"
           " --set nonfinite_loss=" +
           mode + " --no-progress --out " + out.string();
}

nlohmann::json readJson(const fs::path& file) {
    std::ifstream in(file);
    return nlohmann::json::parse(in);
}

size_t firstNonFinite(const std::vector<ts::StepRecord>& steps) {
    for (size_t i = 0; i < steps.size(); ++i)
        if (!std::isfinite(steps[i].loss)) return i;
    return steps.size();
}

TEST(NonFiniteLoss, StopsTheRunAtTheStepAndKeepsWhatCameBefore) {
    const auto dir = ts::test::freshDir("nonfinite_stop");
    const auto r = runCli(nanRun(dir, "stop"));
    EXPECT_EQ(r.code, 1) << r.output;
    const auto run = readJson(dir / "run.json");
    EXPECT_EQ(run["summary"]["status"], "failed");
    const std::string error = run["summary"]["error"];
    EXPECT_NE(error.find("the loss is"), std::string::npos) << error;
    EXPECT_NE(error.find("nonfinite_loss=stop"), std::string::npos) << error;
    // The steps before it are recorded, all finite; the error names the next.
    const auto steps = ts::readStepsCsv(dir / "steps.csv");
    ASSERT_EQ(steps.size(), kFirstNan);
    EXPECT_EQ(firstNonFinite(steps), steps.size());
    EXPECT_NE(error.find("step 4 (epoch 1, step 5 of the epoch): the loss is NaN"),
              std::string::npos)
        << error;
    EXPECT_FALSE(fs::exists(dir / "final.pt")); // no checkpoint of diverged weights
    EXPECT_EQ(r.output.find("Exception raised from"), std::string::npos) << r.output;
}

TEST(NonFiniteLoss, SkipLeavesOutTheUpdatesAndFinishes) {
    const auto dir = ts::test::freshDir("nonfinite_skip");
    const auto r = runCli(nanRun(dir, "skip"));
    ASSERT_EQ(r.code, 0) << r.output;
    const auto run = readJson(dir / "run.json");
    EXPECT_EQ(run["summary"]["status"], "completed");
    const auto steps = ts::readStepsCsv(dir / "steps.csv");
    ASSERT_EQ(steps.size(), 12u);
    const size_t first = firstNonFinite(steps);
    ASSERT_EQ(first, kFirstNan);
    int64_t skipped = 0;
    for (size_t i = 0; i < steps.size(); ++i) {
        EXPECT_EQ(steps[i].skipped, !std::isfinite(steps[i].loss)) << i;
        skipped += steps[i].skipped;
    }
    EXPECT_EQ(skipped, int64_t(steps.size() - kFirstNan));
    EXPECT_EQ(run["summary"]["skipped_steps"], skipped);
    // Warned with the step, at most five times.
    size_t warnings = 0;
    for (const auto& m : run["messages"])
        if (m.get<std::string>().find("its update was skipped") != std::string::npos) ++warnings;
    EXPECT_EQ(warnings, size_t(std::min<int64_t>(skipped, 5)));
    EXPECT_NE(run["messages"].dump().find("step " + std::to_string(first) + " (epoch 1"),
              std::string::npos)
        << run["messages"].dump();
    // The epoch's loss is over the finite steps only.
    EXPECT_TRUE(std::isfinite(run["epochs"][0]["train_loss"].get<double>()));
}

// The ranks agree: a loss that is non-finite on one rank stops (or skips)
// every rank at the same step, never leaving one in a collective.
TEST(NonFiniteLoss, RanksOfADataParallelJobAgree) {
    const auto dir = ts::test::freshDir("nonfinite_ranks");
    const auto r = runCli(nanRun(dir, "stop") + " --nproc-per-node 2 --dist-timeout 20");
    EXPECT_EQ(r.code, 1) << r.output;
    const auto a = ts::readStepsCsv(dir / "ranks/0/steps.csv");
    const auto b = ts::readStepsCsv(dir / "ranks/1/steps.csv");
    EXPECT_EQ(a.size(), kFirstNan);
    EXPECT_EQ(b.size(), kFirstNan);
    for (const char* rank : {"0", "1"})
        EXPECT_NE(
            readJson(dir / "ranks" / rank / "run.json")["summary"]["error"].get<std::string>().find(
                "the loss is"),
            std::string::npos)
            << rank;
}

} // namespace
