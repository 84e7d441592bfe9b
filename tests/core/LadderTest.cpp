// Ladder decisions with a scripted runner: which rungs run, on top of what,
// which are kept, and why the others are skipped or dropped.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "LadderTestSupport.h"
#include "RecordingChartRenderer.h"
#include "SeededNoise.h"
#include "SweepTestSupport.h"
#include "analysis/NcuCsv.h"
#include "config/ConfigError.h"
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
    // Three rounds of two runs each (noise-free speeds are decisive at once) for
    // the baseline against itself, workers, channels-last, batch and threads.
    EXPECT_EQ(runner.ran.size(), 5u * 3 * 2);
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

// images/s of `speed(config)` with log-normal noise of `sd` per run, and a
// step breakdown (30% data, 60% compute, 10% other) under which no phase
// ceiling binds: the interval alone decides.
ts::test::FakePointRunner noisyRunner(uint64_t seed, double sd,
                                      std::function<double(const ts::ExperimentConfig&)> speed) {
    ts::test::FakePointRunner runner;
    auto noise = std::make_shared<ts::test::SeededNoise>(seed);
    runner.behavior = [noise, sd, speed](const ts::ExperimentConfig& c) {
        auto r = completedPoint(speed(c) * std::exp(sd * noise->normal()), 100 * kMiB);
        auto& p = r.summary.median_phases;
        const double step = r.summary.median_step_ms;
        p.data_ms = 0.3 * step;
        p.forward_ms = 0.2 * step;
        p.backward_ms = 0.3 * step;
        p.optimizer_ms = 0.1 * step;
        p.other_ms = 0.1 * step;
        return r;
    };
    return runner;
}

ts::LadderSpec noisySpec() {
    auto spec = ladderSpec();
    spec.rounds = 3;
    spec.max_rounds = 5;
    return spec;
}

// Runs that differ by up to about ±6% (2% per run): over 200 seeds, no rung
// without an effect is ever kept; a point estimate without an interval keeps
// about half of them.
TEST(LadderNoise, ZeroEffectRungsAreNeverKeptAcrossSeeds) {
    int kept = 0, compared = 0, point_estimate_would_keep = 0;
    for (uint64_t seed = 1; seed <= 200; ++seed) {
        auto runner = noisyRunner(seed, 0.02, [](const ts::ExperimentConfig&) { return 100.0; });
        const auto result =
            ts::runLadder(noisySpec(), cpuLadderContext(), runner, ts::test::freshDir("noise0"));
        for (size_t i = 1; i < result.rows.size(); ++i) {
            const auto& row = result.rows[i];
            if (!row.ran) continue;
            ++compared;
            kept += row.kept;
            point_estimate_would_keep += row.gain > 0;
            EXPECT_FALSE(row.kept) << "seed " << seed << ": " << row.id << " " << row.decision;
        }
    }
    EXPECT_EQ(kept, 0);
    EXPECT_GT(compared, 600);
    EXPECT_GT(point_estimate_would_keep, compared / 3) << "the noise is real";
}

// A real +20% (threads) among zero-effect rungs, at 3% noise per run: kept
// on every seed, and the others are not.
TEST(LadderNoise, ARealTwentyPercentGainIsKept) {
    int threads_kept = 0, others_kept = 0;
    const int seeds = 100;
    for (uint64_t seed = 1; seed <= uint64_t(seeds); ++seed) {
        auto runner = noisyRunner(seed * 31, 0.03, [](const ts::ExperimentConfig& c) {
            return c.threads != 1 ? 120.0 : 100.0;
        });
        const auto result =
            ts::runLadder(noisySpec(), cpuLadderContext(), runner, ts::test::freshDir("noise20"));
        threads_kept += rung(result, "threads").kept;
        for (const auto& row : result.rows)
            others_kept += row.id != "baseline" && row.id != "threads" && row.kept;
    }
    EXPECT_EQ(threads_kept, seeds);
    EXPECT_LE(others_kept, 1) << "zero-effect rungs at 3% noise: about 0.25% are kept";
}

// The interval of a rung holds its true gain at about the stated 95%.
TEST(LadderNoise, RungIntervalsCoverTheTrueGainAtTheStatedRate) {
    int covered = 0, measured = 0;
    for (uint64_t seed = 1; seed <= 400; ++seed) {
        auto runner = noisyRunner(seed * 7 + 3, 0.04, [](const ts::ExperimentConfig& c) {
            return c.workers > 0 ? 110.0 : 100.0;
        });
        auto spec = noisySpec();
        const auto result =
            ts::runLadder(spec, cpuLadderContext(), runner, ts::test::freshDir("noise_cover"));
        const auto& w = rung(result, "workers");
        ASSERT_TRUE(w.interval.hasInterval());
        EXPECT_NEAR(w.interval.confidence, 0.95, 1e-12);
        ++measured;
        covered += w.interval.low <= 0.1 && 0.1 <= w.interval.high;
    }
    const double rate = double(covered) / measured;
    EXPECT_GT(rate, 0.91) << "stopping early when decisive costs a little coverage, not more";
    EXPECT_LE(rate, 0.99);
}

TEST(LadderNoise, AGainLargerThanItsPhaseAllowsIsFlaggedAndNotKept) {
    ts::test::FakePointRunner runner;
    // Workers "gain" 16.5% although waiting for data is 0.01% of the step.
    runner.behavior = [](const ts::ExperimentConfig& c) {
        auto r = completedPoint(c.workers > 0 ? 116.5 : 100.0, 100 * kMiB);
        r.summary.median_step_ms = 1454;
        r.summary.median_phases.data_ms = 0.14;
        r.summary.median_phases.forward_ms = 600;
        r.summary.median_phases.backward_ms = 800;
        r.summary.median_phases.optimizer_ms = 53.86;
        return r;
    };
    const auto result =
        ts::runLadder(noisySpec(), cpuLadderContext(), runner, ts::test::freshDir("implausible"));
    const auto& w = rung(result, "workers");
    EXPECT_FALSE(w.kept);
    EXPECT_NE(w.implausible.find("data phase is 0.14 ms of a 1454.00 ms step"), std::string::npos)
        << w.implausible;
    EXPECT_NE(w.decision.find("+16.5%"), std::string::npos) << w.decision;
    EXPECT_NE(w.decision.find("at most +0.0%"), std::string::npos) << w.decision;
    EXPECT_EQ(result.best.workers, 0);
}

TEST(LadderNoise, StraddlingIntervalsGetMoreRoundsAndSayNoMeasurableEffect) {
    // Workers measure +8%, -4%, +8%, ... against a steady best: the interval
    // straddles both 0 and the margin, so the rung gets every round up to
    // max_rounds and then says it found nothing.
    ts::test::FakePointRunner runner;
    auto candidate_runs = std::make_shared<int>(0);
    runner.behavior = [candidate_runs](const ts::ExperimentConfig& c) {
        if (c.workers == 0) return completedPoint(100, 100 * kMiB);
        return completedPoint((*candidate_runs)++ % 2 == 0 ? 108 : 96, 100 * kMiB);
    };
    const auto result =
        ts::runLadder(noisySpec(), cpuLadderContext(), runner, ts::test::freshDir("straddle"));
    const auto& w = rung(result, "workers");
    EXPECT_EQ(w.rounds.size(), 5u);
    EXPECT_EQ(w.interval.rounds, 5);
    EXPECT_FALSE(w.kept);
    EXPECT_NE(w.decision.find("no measurable effect (gain "), std::string::npos) << w.decision;
    EXPECT_NE(result.rows[0].decision.find("two runs of it differ by"), std::string::npos);
    EXPECT_TRUE(result.noise_floor.hasInterval());
}

TEST(LadderNoise, RoundsBelowTwoAreRefused) {
    ts::test::FakePointRunner runner;
    runner.behavior = cpuLadderBehaviour;
    auto spec = ladderSpec();
    spec.rounds = 1;
    EXPECT_THROW(ts::runLadder(spec, cpuLadderContext(), runner, ts::test::freshDir("r1")),
                 ts::ConfigError);
    spec.rounds = 4;
    spec.max_rounds = 3;
    EXPECT_THROW(ts::runLadder(spec, cpuLadderContext(), runner, ts::test::freshDir("r2")),
                 ts::ConfigError);
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
    const auto column = [&](const std::string& name) {
        return size_t(std::find(csv[0].begin(), csv[0].end(), name) - csv[0].begin());
    };
    EXPECT_EQ(csv[1][0], "baseline");
    EXPECT_EQ(csv[2][0], "workers");
    EXPECT_EQ(csv[2][column("kept")], "1");
    EXPECT_DOUBLE_EQ(std::stod(csv[2][column("speedup")]), 1.5);
    EXPECT_DOUBLE_EQ(std::stod(csv[2][column("gain_low")]), 0.5);
    EXPECT_EQ(csv[2][column("rounds")], "3");
    EXPECT_EQ(csv[1][column("rounds")], "3") << "the baseline's row holds the noise floor";
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
