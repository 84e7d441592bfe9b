// Ladder decisions with a scripted runner: which rungs run, on top of what,
// which are kept, and why the others are skipped or dropped.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "LadderTestSupport.h"
#include "RecordingChartRenderer.h"
#include "SweepTestSupport.h"
#include "analysis/NcuCsv.h"
#include "experiments/Ladder.h"
#include "experiments/LadderReport.h"
#include "report/ChartRenderer.h"

namespace {

using ts::PointOutcome;
using ts::test::completedPoint;
using ts::test::cpuLadderBehaviour;
using ts::test::cpuLadderContext;
using ts::test::kMiB;
using ts::test::ladderSpec;

const ts::RungRow& rung(const ts::LadderResult& r, const std::string& id) {
    for (const auto& row : r.rows)
        if (row.id == id) return row;
    throw std::runtime_error("no rung " + id);
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(Ladder, KeepsOnlyRungsThatBeatTheBestByTheMargin) {
    ts::test::FakePointRunner runner;
    runner.behavior = cpuLadderBehaviour;
    const auto result =
        ts::runLadder(ladderSpec(), cpuLadderContext(), runner, ts::test::freshDir("ladder"));
    ASSERT_EQ(result.rows.size(), ts::ladderRungIds().size());
    EXPECT_TRUE(rung(result, "baseline").kept);
    EXPECT_TRUE(rung(result, "workers").kept);
    EXPECT_EQ(rung(result, "workers").change, "workers=4");
    EXPECT_NEAR(rung(result, "workers").speedup, 1.5, 1e-9);
    const auto& cl = rung(result, "channels-last");
    EXPECT_FALSE(cl.kept);
    EXPECT_NE(cl.decision.find("within the 3% margin"), std::string::npos) << cl.decision;
    const auto& batch = rung(result, "larger-batch");
    EXPECT_TRUE(batch.kept);
    EXPECT_EQ(batch.config.batch_size, 16);
    EXPECT_EQ(batch.config.workers, 4) << "each rung builds on the kept ones";
    EXPECT_FALSE(batch.config.channels_last) << "dropped rungs are not carried on";
    const auto& threads = rung(result, "threads");
    EXPECT_TRUE(threads.ran);
    EXPECT_EQ(threads.config.threads, 0) << "threads=1 goes back to LibTorch's default first";
    EXPECT_FALSE(threads.kept);
    EXPECT_NE(threads.decision.find("slower"), std::string::npos);
    EXPECT_EQ(result.best.workers, 4);
    EXPECT_EQ(result.best.batch_size, 16);
    EXPECT_NEAR(result.best_images_per_sec, 180, 1e-9);
    for (const auto& c : runner.ran) {
        EXPECT_EQ(c.max_steps, 4);
        EXPECT_EQ(c.val_every, 1);
        EXPECT_EQ(c.val_max_steps, 2);
    }
}

TEST(Ladder, CpuSkipsDeviceRungsWithReasons) {
    ts::test::FakePointRunner runner;
    runner.behavior = cpuLadderBehaviour;
    const auto result =
        ts::runLadder(ladderSpec(), cpuLadderContext(), runner, ts::test::freshDir("ladder2"));
    for (const char* id : {"pin-memory", "bf16", "fp16", "cudnn-benchmark"}) {
        const auto& row = rung(result, id);
        EXPECT_FALSE(row.ran) << id;
        EXPECT_EQ(row.result.outcome, PointOutcome::Skipped) << id;
        EXPECT_FALSE(row.skip_reason.empty()) << id;
    }
    EXPECT_NE(rung(result, "bf16").skip_reason.find("Test CPU"), std::string::npos);
    EXPECT_EQ(runner.ran.size(), 5u); // baseline, workers, channels-last, batch, threads
}

TEST(Ladder, CudaRunsPrecisionAndCudnnRungs) {
    ts::LadderContext cuda = cpuLadderContext();
    cuda.cuda = true;
    cuda.cuda_bf16 = true;
    ts::test::FakePointRunner runner;
    runner.behavior = [](const ts::ExperimentConfig& c) {
        double ips = 100;
        if (c.precision == "bf16") ips *= 2;
        if (c.precision == "fp16") ips *= 2.04; // inside the margin over bf16
        if (c.pin_memory) ips *= 1.1;
        return completedPoint(ips, 0);
    };
    auto base = ts::test::tinyConfig();
    base.workers = 2;
    const auto result =
        ts::runLadder(ladderSpec(base), cuda, runner, ts::test::freshDir("ladder3"));
    EXPECT_FALSE(rung(result, "workers").ran);
    EXPECT_NE(rung(result, "workers").skip_reason.find("already"), std::string::npos);
    EXPECT_TRUE(rung(result, "pin-memory").kept);
    EXPECT_TRUE(rung(result, "bf16").kept);
    EXPECT_EQ(rung(result, "fp16").config.precision, "fp16");
    EXPECT_TRUE(rung(result, "fp16").config.pin_memory);
    EXPECT_FALSE(rung(result, "fp16").kept);
    EXPECT_TRUE(rung(result, "cudnn-benchmark").ran);
    EXPECT_EQ(result.best.precision, "bf16");
    // Memory unknown (0): the larger batch is not predicted and runs.
    EXPECT_TRUE(rung(result, "larger-batch").ran);
}

TEST(Ladder, LargerBatchIsSkippedWhenItWouldNotFit) {
    ts::test::FakePointRunner runner;
    runner.behavior = cpuLadderBehaviour; // 100 MiB at batch 8
    runner.available_bytes = 180 * kMiB;  // 2x needs 200 MiB > 90% of 180
    const auto result =
        ts::runLadder(ladderSpec(), cpuLadderContext(), runner, ts::test::freshDir("ladder4"));
    const auto& batch = rung(result, "larger-batch");
    EXPECT_FALSE(batch.ran);
    EXPECT_NE(batch.skip_reason.find("200 MiB"), std::string::npos) << batch.skip_reason;
    EXPECT_NE(batch.skip_reason.find("180 MiB"), std::string::npos);
}

TEST(Ladder, FailuresOomAndNanLossAreDroppedAndTheLadderGoesOn) {
    ts::test::FakePointRunner runner;
    runner.behavior = [](const ts::ExperimentConfig& c) {
        if (c.workers > 0) return ts::test::outOfMemoryPoint();
        auto r = completedPoint(c.channels_last ? 500 : 100, 0);
        if (c.channels_last) r.summary.final_train_loss = std::nan("");
        return r;
    };
    const auto result =
        ts::runLadder(ladderSpec(), cpuLadderContext(), runner, ts::test::freshDir("ladder5"));
    EXPECT_EQ(rung(result, "workers").decision, "dropped: out of memory");
    EXPECT_NE(rung(result, "channels-last").decision.find("NaN"), std::string::npos);
    EXPECT_FALSE(rung(result, "channels-last").kept);
    EXPECT_TRUE(rung(result, "larger-batch").ran);
    EXPECT_EQ(result.best.workers, 0);
}

TEST(Ladder, FailedBaselineSkipsEverythingElse) {
    ts::test::FakePointRunner runner;
    runner.behavior = [](const ts::ExperimentConfig&) {
        ts::PointResult r;
        r.outcome = PointOutcome::Failed;
        r.message = "no data";
        return r;
    };
    const auto result =
        ts::runLadder(ladderSpec(), cpuLadderContext(), runner, ts::test::freshDir("ladder6"));
    EXPECT_TRUE(result.baseline_failed());
    EXPECT_EQ(runner.ran.size(), 1u);
    EXPECT_NE(rung(result, "threads").skip_reason.find("baseline failed"), std::string::npos);
    EXPECT_NE(ts::ladderVerdict(result).find("no data"), std::string::npos);
}

TEST(Ladder, CancelSkipsTheRemainingRungs) {
    ts::test::FakePointRunner runner;
    runner.behavior = cpuLadderBehaviour;
    runner.cancel_during_run = 1; // during the baseline
    const auto result = ts::runLadder(ladderSpec(), cpuLadderContext(), runner,
                                      ts::test::freshDir("ladder_cancel"));
    EXPECT_EQ(runner.ran.size(), 1u);
    EXPECT_FALSE(result.baseline_failed());
    for (size_t i = 1; i < result.rows.size(); ++i) {
        EXPECT_EQ(result.rows[i].result.outcome, PointOutcome::Skipped) << result.rows[i].id;
        EXPECT_FALSE(result.rows[i].ran);
    }
    EXPECT_EQ(rung(result, "workers").skip_reason, "not run: cancelled");
}

TEST(LadderReport, FilesAreWrittenAndReadBack) {
    ts::test::FakePointRunner runner;
    runner.behavior = cpuLadderBehaviour;
    const auto dir = ts::test::freshDir("ladder_report");
    const auto result = ts::runLadder(ladderSpec(), cpuLadderContext(), runner, dir);
    ts::test::ScopedRecordingRenderer charts;
    ts::writeLadderReport(result, dir);
    const auto csv = ts::parseCsvRecords(readFile(dir / ts::ladder_files::kCsv));
    ASSERT_EQ(csv.size(), result.rows.size() + 1);
    EXPECT_EQ(csv[1][0], "baseline");
    EXPECT_EQ(csv[2][0], "workers");
    EXPECT_EQ(csv[2][12], "1");                  // kept
    EXPECT_DOUBLE_EQ(std::stod(csv[2][5]), 1.5); // speed-up
    const std::string md = readFile(dir / ts::ladder_files::kMarkdown);
    EXPECT_NE(md.find("1.80x"), std::string::npos) << md;
    EXPECT_NE(md.find("workers=4, batch_size=16 (2x)"), std::string::npos) << md;
    EXPECT_NE(readFile(dir / ts::ladder_files::kBestConfig).find("\"batch_size\": 16"),
              std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(dir / ts::ladder_files::kThroughputPng));
    EXPECT_EQ(charts->specs.count(ts::ladder_files::kThroughputPng), 1u);
    const std::string table = ts::ladderTable(result);
    EXPECT_NE(table.find("larger batch"), std::string::npos);
}

TEST(LadderReport, ChartShowsKeptAndDroppedRungsWithTheirSpeedUps) {
    ts::test::FakePointRunner runner;
    runner.behavior = cpuLadderBehaviour;
    const auto result =
        ts::runLadder(ladderSpec(), cpuLadderContext(), runner, ts::test::freshDir("ladder_chart"));
    const auto c = ts::ladderThroughputChart(result);
    ASSERT_EQ(c.categories.size(), result.rows.size());
    EXPECT_EQ(c.categories[0], "baseline");
    EXPECT_TRUE(c.overlay);
    ASSERT_EQ(c.series.size(), 2u);
    const auto& kept = c.series[0];
    const auto& dropped = c.series[1];
    EXPECT_EQ(kept.name, "kept");
    EXPECT_EQ(dropped.name, "not kept");
    EXPECT_EQ(dropped.color, ts::chart::kNeutralColor);
    for (size_t i = 0; i < result.rows.size(); ++i) {
        const auto& row = result.rows[i];
        const bool measured = row.ran && row.result.outcome == PointOutcome::Completed;
        // Each measured rung has exactly one bar: in colour when kept, grey when not.
        EXPECT_EQ(std::isnan(kept.values[i]), !(measured && row.kept)) << row.id;
        EXPECT_EQ(std::isnan(dropped.values[i]), !(measured && !row.kept)) << row.id;
        if (!row.ran) {
            EXPECT_EQ(kept.labels[i], "skipped") << row.id;
        }
    }
    const auto workers = size_t(std::find(c.categories.begin(), c.categories.end(), "workers") -
                                c.categories.begin());
    ASSERT_LT(workers, c.categories.size());
    EXPECT_DOUBLE_EQ(kept.values[workers], 150.0);
    EXPECT_NE(kept.labels[workers].find("1.50x"), std::string::npos) << kept.labels[workers];
    ASSERT_EQ(c.lines.size(), 1u);
    EXPECT_EQ(c.lines[0].name, "baseline");
    EXPECT_DOUBLE_EQ(c.lines[0].value, result.baseline_images_per_sec);
}
