// sweep.csv and ladder.csv written by the report writers read back by
// ReportReader (the GUI's Open… of a sweep or ladder directory).
#include <fstream>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "SweepTestSupport.h"
#include "experiments/LadderReport.h"
#include "experiments/ReportReader.h"
#include "experiments/SweepReport.h"

namespace {

using ts::PointOutcome;
using ts::test::completedPoint;
using ts::test::kMiB;

ts::SweepResult gridSweep() {
    ts::SweepSpec spec;
    spec.base = ts::test::tinyConfig();
    spec.base.name = "reader-sweep";
    spec.axes.push_back({"batch_size", {"16", "32"}});
    spec.axes.push_back({"precision", {"fp32", "bf16"}});
    spec.steps = 4;
    spec.warmup = 1;
    ts::test::FakePointRunner runner;
    runner.behavior = [](const ts::ExperimentConfig& c) {
        if (c.batch_size == 32 && c.precision == "bf16") return ts::test::outOfMemoryPoint();
        return completedPoint(100.0 + c.batch_size, (40 + c.batch_size) * kMiB, 0.25);
    };
    return ts::runSweep(spec, runner, ts::test::freshDir("reader_sweep_runs"));
}

} // namespace

TEST(ReportReader, SweepCsvReadsBackRowsKeysAndFigures) {
    const auto written = gridSweep();
    const auto dir = ts::test::freshDir("reader_sweep");
    ts::writeSweepReport(written, dir);
    ASSERT_EQ(ts::reportKind(dir), ts::ReportKind::Sweep);

    const auto read = ts::readSweepReport(dir);
    EXPECT_EQ(read.spec.base.name, "reader-sweep");
    ASSERT_EQ(read.spec.axes.size(), 2u);
    EXPECT_EQ(read.spec.axes[0].key, "batch_size");
    EXPECT_EQ(read.spec.axes[1].key, "precision");
    EXPECT_EQ(read.spec.axes[0].values, (std::vector<std::string>{"16", "32"}));
    ASSERT_EQ(read.rows.size(), written.rows.size());
    for (size_t i = 0; i < read.rows.size(); ++i) {
        const auto& a = written.rows[i];
        const auto& b = read.rows[i];
        EXPECT_EQ(b.point.index, a.point.index);
        EXPECT_EQ(b.point.label(), a.point.label());
        EXPECT_EQ(b.result.outcome, a.result.outcome);
        EXPECT_DOUBLE_EQ(b.result.summary.median_images_per_sec,
                         a.result.summary.median_images_per_sec);
        EXPECT_EQ(b.result.memory_bytes, a.result.memory_bytes);
        EXPECT_EQ(b.result.message, a.result.message);
        EXPECT_EQ(b.result.run_dir, a.result.run_dir);
    }
    EXPECT_EQ(read.rows[3].result.outcome, PointOutcome::OutOfMemory);
    EXPECT_NEAR(read.rows[0].result.accuracy(), 0.25, 1e-9);
    EXPECT_EQ(read.completed(), written.completed());
}

TEST(ReportReader, LadderCsvReadsBackDecisionsAndSkips) {
    ts::LadderResult written;
    written.spec.base = ts::test::tinyConfig();
    written.spec.base.name = "reader-ladder";
    auto rung = [](const std::string& id, bool ran, double ips, bool kept, const std::string& why) {
        ts::RungRow r;
        r.id = id;
        r.title = id + " title";
        r.change = ran ? id + "=1" : "";
        r.ran = ran;
        if (ran) {
            r.result = completedPoint(ips, 100 * kMiB);
            r.speedup = ips / 100.0;
            r.kept = kept;
            r.decision = why;
        } else {
            r.result.outcome = PointOutcome::Skipped;
            r.result.message = why;
            r.skip_reason = why;
            r.decision = "skipped";
        }
        return r;
    };
    written.rows = {rung("baseline", true, 100, true, "baseline"),
                    rung("workers", true, 130, true, "kept: +30.0% over the best so far"),
                    rung("pin-memory", false, 0, false, "pinned memory needs CUDA"),
                    rung("channels-last", true, 128, false, "dropped: -1.5%")};
    written.rows[0].change.clear();
    written.rows[1].interval = ts::pairedGain({100, 101, 99}, {128, 132, 130});
    written.rows[1].level = ts::repeatedLevel({128, 132, 130});
    written.noise_floor = ts::pairedGain({100, 101, 99}, {101, 98, 100});
    written.baseline_images_per_sec = 100;
    written.best_images_per_sec = 130;
    const auto dir = ts::test::freshDir("reader_ladder");
    ts::writeLadderReport(written, dir);
    ASSERT_EQ(ts::reportKind(dir), ts::ReportKind::Ladder);

    const auto read = ts::readLadderReport(dir);
    EXPECT_EQ(read.spec.base.name, "reader-ladder");
    ASSERT_EQ(read.rows.size(), 4u);
    EXPECT_EQ(read.rows[1].id, "workers");
    EXPECT_EQ(read.rows[1].title, "workers title");
    EXPECT_EQ(read.rows[1].change, "workers=1");
    EXPECT_TRUE(read.rows[1].kept);
    EXPECT_NEAR(read.rows[1].speedup, 1.3, 1e-12);
    EXPECT_EQ(read.rows[1].result.summary.steps_completed, 10) << "the GUI shows measured rungs";
    // ladder.csv holds six significant digits.
    EXPECT_NEAR(read.rows[1].interval.low, written.rows[1].interval.low, 1e-6);
    EXPECT_NEAR(read.rows[1].interval.high, written.rows[1].interval.high, 1e-6);
    EXPECT_EQ(read.rows[1].interval.rounds, 3);
    EXPECT_NEAR(read.rows[1].level.high, written.rows[1].level.high, 1e-3);
    EXPECT_NEAR(read.noise_floor.high, written.noise_floor.high, 1e-6);
    EXPECT_TRUE(read.noise_floor.hasInterval());
    EXPECT_FALSE(read.rows[2].ran);
    EXPECT_EQ(read.rows[2].skip_reason, "pinned memory needs CUDA");
    EXPECT_EQ(read.rows[2].result.outcome, PointOutcome::Skipped);
    EXPECT_FALSE(read.rows[3].kept);
    EXPECT_EQ(read.rows[3].decision, "dropped: -1.5%");
    EXPECT_DOUBLE_EQ(read.baseline_images_per_sec, 100);
    EXPECT_NEAR(read.best_images_per_sec, written.rows[1].level.value, 1e-3);
    EXPECT_FALSE(read.baseline_failed());
}

TEST(ReportReader, RejectsOtherFilesNamingThem) {
    EXPECT_THROW(ts::parseSweepCsv("name,calls\nx,1\n", "x.csv"), ts::ReportFormatError);
    EXPECT_THROW(ts::parseLadderCsv("point,batch_size,status\n", "y.csv"), ts::ReportFormatError);
    try {
        ts::parseSweepCsv("point,batch_size,status,images_per_sec\n0,16,great,1\n", "z.csv");
        FAIL() << "an unknown status was accepted";
    } catch (const ts::ReportFormatError& e) {
        EXPECT_NE(std::string(e.what()).find("z.csv"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("great"), std::string::npos);
    }
    const auto empty = ts::test::freshDir("reader_none");
    EXPECT_EQ(ts::reportKind(empty), ts::ReportKind::None);
    EXPECT_THROW(ts::readSweepReport(empty), ts::ReportFormatError);
}
