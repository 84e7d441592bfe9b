// Sweep bookkeeping with a scripted runner: run order, point configs, the
// memory guard's skips, OOM handling, bad input, and the report files.
#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "RecordingChartRenderer.h"
#include "SweepTestSupport.h"
#include "analysis/NcuCsv.h"
#include "config/ConfigError.h"
#include "experiments/MemoryGuard.h"
#include "experiments/Sweep.h"
#include "experiments/SweepReport.h"
#include "report/ChartRenderer.h"

namespace {

using ts::PointOutcome;
using ts::test::batchSweep;
using ts::test::completedPoint;
using ts::test::kMiB;
using ts::test::linearMemory;

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(Sweep, RunsMemoryKeysAscendingWithMeasuredRunConfigs) {
    ts::test::FakePointRunner runner;
    runner.behavior = linearMemory;
    const auto dir = ts::test::freshDir("sweep_order");
    const auto result = ts::runSweep(batchSweep("32, 8,16,8"), runner, dir);
    ASSERT_EQ(runner.ran.size(), 3u); // duplicate 8 dropped
    EXPECT_EQ(runner.ran[0].batch_size, 8);
    EXPECT_EQ(runner.ran[1].batch_size, 16);
    EXPECT_EQ(runner.ran[2].batch_size, 32);
    for (const auto& c : runner.ran) {
        EXPECT_EQ(c.epochs, 1);
        EXPECT_EQ(c.max_steps, 6); // warm-up + measured
        EXPECT_EQ(c.warmup_steps_excluded, 2);
        EXPECT_EQ(c.val_every, 0);
        EXPECT_FALSE(c.profile.enabled);
    }
    EXPECT_EQ(runner.dirs[1], dir / "point_1_batch_size=16");
    EXPECT_EQ(result.completed(), 3u);
    EXPECT_EQ(result.rows[2].point.label(), "batch_size=32");
}

TEST(Sweep, RepeatsRunInAlternatingRoundsAndSayWhichPointsAreWithinNoise) {
    ts::test::FakePointRunner runner;
    // batch 8: 100 images/s, batch 16: 101 (no real difference), batch 32:
    // 130; each run wobbles by +-2% in a fixed pattern.
    auto runs = std::make_shared<int>(0);
    runner.behavior = [runs](const ts::ExperimentConfig& c) {
        const double wobble = 1 + 0.02 * std::sin(double((*runs)++) * 1.7);
        const double base = c.batch_size == 8 ? 100 : c.batch_size == 16 ? 101 : 130;
        return completedPoint(base * wobble, 10 * kMiB * c.batch_size);
    };
    auto spec = batchSweep("8,16,32");
    spec.repeat = 3;
    const auto dir = ts::test::freshDir("sweep_repeat");
    const auto result = ts::runSweep(spec, runner, dir);
    ASSERT_EQ(runner.ran.size(), 9u);
    EXPECT_EQ(result.rounds, 3);
    // Round 2 runs the points backwards, round 3 forwards again.
    EXPECT_EQ(runner.ran[3].batch_size, 32);
    EXPECT_EQ(runner.ran[5].batch_size, 8);
    EXPECT_EQ(runner.ran[6].batch_size, 8);
    EXPECT_EQ(runner.dirs[3], dir / "point_2_batch_size=32_round2");
    const auto& b8 = result.rows[0];
    const auto& b16 = result.rows[1];
    const auto& b32 = result.rows[2];
    ASSERT_EQ(b8.round_images_per_sec.size(), 3u);
    EXPECT_TRUE(b32.best);
    EXPECT_GT(b8.level.confidence, 0);
    EXPECT_LT(b8.level.low, b8.level.value);
    EXPECT_TRUE(b8.vs_best.clearlyBelow(0.1)) << ts::formatGain(b8.vs_best);
    // 8 against 16: one percent apart, inside the noise of their rounds.
    const auto eight_vs_sixteen = ts::pairedGain(b16.round_images_per_sec, b8.round_images_per_sec);
    EXPECT_TRUE(eight_vs_sixteen.withinNoise()) << ts::formatGain(eight_vs_sixteen);
    const std::string md = ts::sweepMarkdown(result);
    EXPECT_NE(md.find("Each point ran 3 times"), std::string::npos) << md;
    EXPECT_NE(md.find("Fastest: batch_size=32"), std::string::npos) << md;
    const auto chart = ts::sweepThroughputChart(result);
    ASSERT_EQ(chart.series[0].errors.size(), 3u);
    EXPECT_GT(chart.series[0].errors[0], 0);
}

TEST(Sweep, ABudgetStopsFurtherRoundsAndRepeatBelowOneIsRefused) {
    ts::test::FakePointRunner runner;
    runner.behavior = [](const ts::ExperimentConfig& c) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return linearMemory(c);
    };
    auto spec = batchSweep("8,16");
    spec.repeat = 5;
    spec.budget_s = 0.06; // the first round takes ~0.04 s: a second would end past it
    const auto result = ts::runSweep(spec, runner, ts::test::freshDir("sweep_budget"));
    EXPECT_EQ(result.rounds, 1);
    EXPECT_EQ(runner.ran.size(), 2u);
    EXPECT_NE(ts::sweepMarkdown(result).find("Each point ran once"), std::string::npos);
    spec.repeat = 0;
    EXPECT_THROW(ts::runSweep(spec, runner, ts::test::freshDir("sweep_r0")), ts::ConfigError);
}

TEST(Sweep, CancelSkipsTheRemainingPointsAndKeepsTheMeasuredOnes) {
    ts::test::FakePointRunner runner;
    runner.behavior = linearMemory;
    runner.cancel_during_run = 2;
    const auto result =
        ts::runSweep(batchSweep("8,16,32,64"), runner, ts::test::freshDir("sweep_cancel"));
    EXPECT_EQ(runner.ran.size(), 2u);
    ASSERT_EQ(result.rows.size(), 4u);
    EXPECT_EQ(result.completed(), 2u);
    for (size_t i = 2; i < 4; ++i) {
        EXPECT_EQ(result.rows[i].result.outcome, PointOutcome::Skipped);
        EXPECT_EQ(result.rows[i].result.message, "not run: cancelled");
    }
}

TEST(Sweep, GridRunsFirstKeyOuterAndKeepsOtherKeysInGivenOrder) {
    auto spec = batchSweep("16,8");
    spec.axes.push_back({"workers", {"2", "0"}});
    const auto points = ts::expandSweep(spec, ts::precisionSupportProblem);
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0].label(), "batch_size=8, workers=2");
    EXPECT_EQ(points[1].label(), "batch_size=8, workers=0");
    EXPECT_EQ(points[3].label(), "batch_size=16, workers=0");
    EXPECT_EQ(points[3].config.workers, 0);
    EXPECT_EQ(points[3].dir_name, "point_3_batch_size=16_workers=0");
}

TEST(Sweep, SkipsPointsPredictedNotToFitWithTheFigures) {
    ts::test::FakePointRunner runner;
    runner.behavior = linearMemory;
    runner.available_bytes = 700 * kMiB; // 90% = 630 MiB may be used
    auto spec = batchSweep("16,32,64,128");
    spec.memory_margin = 0.9;
    const auto result = ts::runSweep(spec, runner, ts::test::freshDir("sweep_guard"));
    ASSERT_EQ(runner.ran.size(), 2u) << "64 and 128 must never run";
    ASSERT_EQ(result.rows.size(), 4u);
    const auto& skipped = result.rows[2];
    EXPECT_EQ(skipped.result.outcome, PointOutcome::Skipped);
    // Exact linear fit through (16, 210 MiB) and (32, 370 MiB): 690 MiB at 64.
    EXPECT_EQ(skipped.predicted_bytes, 690 * kMiB);
    EXPECT_NE(skipped.result.message.find("690 MiB"), std::string::npos) << skipped.result.message;
    EXPECT_NE(skipped.result.message.find("700 MiB"), std::string::npos);
    EXPECT_EQ(result.rows[3].result.outcome, PointOutcome::Skipped);
    EXPECT_NE(result.rows[3].result.message.find("batch_size=64"), std::string::npos);
}

TEST(Sweep, OutOfMemoryIsRecordedAndOnlyItsLineStops) {
    ts::test::FakePointRunner runner;
    runner.behavior = [](const ts::ExperimentConfig& c) {
        if (c.batch_size >= 32 && c.workers == 0) return ts::test::outOfMemoryPoint();
        return completedPoint(100, 0); // memory unknown: no prediction
    };
    auto spec = batchSweep("16,32,64");
    spec.axes.push_back({"workers", {"0", "1"}});
    const auto result = ts::runSweep(spec, runner, ts::test::freshDir("sweep_oom"));
    ASSERT_EQ(result.rows.size(), 6u);
    auto outcome = [&](int batch, int workers) {
        for (const auto& row : result.rows)
            if (row.point.config.batch_size == batch && row.point.config.workers == workers)
                return row.result.outcome;
        return PointOutcome::Failed;
    };
    EXPECT_EQ(outcome(16, 0), PointOutcome::Completed);
    EXPECT_EQ(outcome(32, 0), PointOutcome::OutOfMemory);
    EXPECT_EQ(outcome(64, 0), PointOutcome::Skipped);
    EXPECT_EQ(outcome(64, 1), PointOutcome::Completed);
    EXPECT_EQ(runner.ran.size(), 5u);
}

TEST(Sweep, FailedPointsDoNotStopTheSweepAndOtherKeysAreNotPredicted) {
    ts::test::FakePointRunner runner;
    runner.available_bytes = 1; // would skip everything if workers were a memory key
    runner.behavior = [](const ts::ExperimentConfig& c) {
        if (c.workers == 1) {
            ts::PointResult r;
            r.outcome = PointOutcome::Failed;
            r.message = "loader crashed";
            return r;
        }
        return completedPoint(50, 100 * kMiB);
    };
    ts::SweepSpec spec = batchSweep("8");
    spec.axes[0] = {"workers", {"0", "1", "2"}};
    const auto result = ts::runSweep(spec, runner, ts::test::freshDir("sweep_fail"));
    EXPECT_EQ(runner.ran.size(), 3u);
    EXPECT_EQ(result.completed(), 2u);
    EXPECT_EQ(result.rows[1].result.outcome, PointOutcome::Failed);
}

TEST(Sweep, BadKeysAndValuesAreConfigErrorsNamingThem) {
    auto expectError = [](ts::SweepSpec spec, const std::string& needle) {
        try {
            ts::expandSweep(spec, ts::precisionSupportProblem);
            ADD_FAILURE() << "no error for " << needle;
        } catch (const ts::ConfigError& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    auto spec = batchSweep("8");
    spec.axes[0].key = "batch_sise";
    expectError(spec, "batch_sise");
    expectError(batchSweep("8,abc"), "abc");
    expectError(batchSweep("0,8"), "\"0\"");
    spec = batchSweep("8");
    spec.axes[0] = {"precision", {"fp8"}};
    expectError(spec, "fp8");
    spec = batchSweep("8");
    spec.steps = 0;
    expectError(spec, "--steps");
    EXPECT_THROW(ts::parseSweepValues("16,,32", "--values"), ts::ConfigError);
    EXPECT_EQ(ts::parseSweepValues("[16, 32]", "--values"), (std::vector<std::string>{"16", "32"}));
}

TEST(SweepMemory, PredictionScalesOneSampleAndFitsSeveral) {
    auto one = ts::predictMemory({{16, 100 * kMiB}}, 64, 1.0);
    ASSERT_TRUE(one.known);
    EXPECT_EQ(one.bytes, 400 * kMiB);
    auto square = ts::predictMemory({{16, 100 * kMiB}}, 32, ts::memoryExponent("image_size"));
    EXPECT_EQ(square.bytes, 400 * kMiB);
    auto fit = ts::predictMemory({{8, 130 * kMiB}, {16, 210 * kMiB}, {32, 370 * kMiB}}, 128, 1.0);
    EXPECT_NEAR(double(fit.bytes), double(1330 * kMiB), double(kMiB));
    EXPECT_FALSE(ts::predictMemory({}, 64, 1.0).known);
    EXPECT_FALSE(ts::predictMemory({{128, kMiB}}, 64, 1.0).known) << "only smaller points count";
    EXPECT_EQ(ts::memoryExponent("workers"), 0);
    const auto decision = ts::guardPoint(one, 400 * kMiB, 0.9);
    EXPECT_FALSE(decision.run);
    EXPECT_TRUE(ts::guardPoint(one, 500 * kMiB, 0.9).run);
}

TEST(SweepMemory, RecognisesAllocatorOutOfMemoryMessages) {
    EXPECT_TRUE(ts::isOutOfMemoryMessage("CUDA out of memory. Tried to allocate 2.00 GiB"));
    EXPECT_TRUE(ts::isOutOfMemoryMessage(
        "[enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory: "
        "you tried to allocate 274877906944 bytes. Error code 12 (Cannot allocate memory)"));
    EXPECT_TRUE(ts::isOutOfMemoryMessage("std::bad_alloc"));
    EXPECT_FALSE(ts::isOutOfMemoryMessage("size mismatch for fc.weight"));
}

TEST(SweepReport, CsvTableAndChartsAreWrittenAndReadBack) {
    ts::test::FakePointRunner runner;
    runner.behavior = linearMemory;
    runner.available_bytes = 700 * kMiB;
    const auto dir = ts::test::freshDir("sweep_report");
    const auto result = ts::runSweep(batchSweep("16,32,64"), runner, dir);
    ts::test::ScopedRecordingRenderer charts;
    ts::writeSweepReport(result, dir);
    const auto records = ts::parseCsvRecords(readFile(dir / ts::sweep_files::kCsv));
    ASSERT_EQ(records.size(), 4u);
    EXPECT_EQ(records[0][1], "batch_size");
    EXPECT_EQ(records[1][1], "16");
    EXPECT_EQ(records[1][2], "ok");
    EXPECT_DOUBLE_EQ(std::stod(records[2][3]), 132.0); // images/s of batch 32
    EXPECT_EQ(records[3][2], "skipped");
    const std::string table = ts::sweepTable(result);
    EXPECT_NE(table.find("skipped"), std::string::npos);
    EXPECT_NE(table.find("370.0"), std::string::npos) << table; // memory of batch 32 in MiB
    for (const char* png : {ts::sweep_files::kThroughputPng, ts::sweep_files::kMemoryPng}) {
        EXPECT_TRUE(std::filesystem::exists(dir / png)) << png;
        EXPECT_EQ(charts->specs.count(png), 1u) << png;
    }
    EXPECT_NE(readFile(dir / ts::sweep_files::kMarkdown).find("| batch_size |"), std::string::npos);
    EXPECT_NE(readFile(dir / ts::sweep_files::kMarkdown)
                  .find(std::string("](") + ts::sweep_files::kThroughputPng + ")"),
              std::string::npos);
}

TEST(SweepReport, ChartsShowEachValueAndThePredictedNeedOfSkippedPoints) {
    ts::test::FakePointRunner runner;
    runner.behavior = linearMemory;
    runner.available_bytes = 700 * kMiB;
    const auto result =
        ts::runSweep(batchSweep("16,32,64"), runner, ts::test::freshDir("sweep_charts"));
    const auto ips = ts::sweepThroughputChart(result);
    EXPECT_EQ(ips.x_label, "batch_size");
    ASSERT_EQ(ips.x_ticks.size(), 3u);
    EXPECT_EQ(ips.x_ticks[1], (std::pair<double, std::string>{1.0, "32"}));
    ASSERT_EQ(ips.series.size(), 1u);
    ASSERT_EQ(ips.series[0].ys.size(), 3u);
    EXPECT_DOUBLE_EQ(ips.series[0].ys[1], 132.0);
    EXPECT_TRUE(std::isnan(ips.series[0].ys[2])) << "skipped: a gap";
    EXPECT_EQ(ips.series[0].point_labels[1], "132.0");
    const auto memory = ts::sweepMemoryChart(result);
    ASSERT_EQ(memory.series.size(), 2u);
    EXPECT_EQ(memory.series[0].name, "measured");
    EXPECT_DOUBLE_EQ(memory.series[0].ys[1], 370.0);
    const auto& predicted = memory.series[1];
    EXPECT_EQ(predicted.name, "predicted (skipped)");
    EXPECT_FALSE(predicted.line);
    EXPECT_TRUE(predicted.hollow_markers);
    EXPECT_TRUE(std::isnan(predicted.ys[0]));
    EXPECT_NEAR(predicted.ys[2], 690.0, 1.0); // fitted from the two measured points
}

TEST(SweepReport, WithoutARendererTheMarkdownSaysChartsNeedQt) {
    ts::test::FakePointRunner runner;
    runner.behavior = linearMemory;
    const auto dir = ts::test::freshDir("sweep_report_headless");
    const auto result = ts::runSweep(batchSweep("16,32"), runner, dir);
    ts::writeSweepReport(result, dir);
    EXPECT_TRUE(std::filesystem::exists(dir / ts::sweep_files::kCsv));
    EXPECT_FALSE(std::filesystem::exists(dir / ts::sweep_files::kThroughputPng));
    const std::string md = readFile(dir / ts::sweep_files::kMarkdown);
    EXPECT_NE(md.find(ts::kChartsNeedQt), std::string::npos) << md;
    EXPECT_EQ(md.find("!["), std::string::npos) << md;
}
