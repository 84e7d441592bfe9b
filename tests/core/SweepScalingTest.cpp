// Sweeps over "processes": the points run as jobs of their process counts in
// ascending order, bad counts are named, each point's speedup and efficiency
// are measured against the fewest processes on its line, and the report's
// scaling columns and chart read back. A scripted runner stands in for the
// jobs (the real ones: DistributedCli.ASweepOverProcesses...).
#include <cmath>

#include <gtest/gtest.h>

#include "GoldenFile.h"
#include "RecordingChartRenderer.h"
#include "SweepTestSupport.h"
#include "commands/Cancellation.h"
#include "commands/Commands.h"
#include "config/ConfigError.h"
#include "experiments/ReportReader.h"
#include "experiments/SweepReport.h"
#include "experiments/SweepScaling.h"

namespace {

using ts::PointOutcome;
using ts::test::completedPoint;

// Jobs of n processes reach 100 * n^0.8 images/s with allreduces of 40 ms
// per step, 75% hidden; `failing` processes counts fail.
class FakeJobRunner : public ts::test::FakePointRunner {
public:
    std::vector<int> processes;
    std::vector<int> failing;

    ts::PointResult runJob(const ts::ExperimentConfig& config, const std::filesystem::path& dir,
                           int n) override {
        processes.push_back(n);
        ran.push_back(config);
        dirs.push_back(dir);
        if (std::find(failing.begin(), failing.end(), n) != failing.end()) {
            ts::PointResult failed;
            failed.message = "rank 1 was killed by signal 9 (Killed)";
            return failed;
        }
        ts::PointResult r = completedPoint(100.0 * std::pow(n, 0.8) * (config.batch_size / 8.0), 0);
        r.run_dir = dir;
        if (n > 1) {
            r.summary.distributed.world_size = n;
            r.summary.distributed.backend = "gloo";
            for (int rank = 0; rank < n; ++rank) {
                ts::RankSummary s;
                s.rank = rank;
                s.allreduce_ms_per_step = 40 + rank; // mean over ranks: 40 + (n-1)/2
                s.comm_wait_ms_per_step = 10;
                s.overlap_pct = 75;
                r.summary.distributed.ranks.push_back(s);
            }
        }
        return r;
    }
};

ts::SweepSpec processesSweep(const std::string& values) {
    ts::SweepSpec spec;
    spec.base = ts::test::tinyConfig();
    spec.axes.push_back({ts::kProcessesKey, ts::parseSweepValues(values, "--values")});
    spec.steps = 4;
    spec.warmup = 2;
    return spec;
}

} // namespace

TEST(ProcessesSweep, RunsJobsOfEachCountAscendingWithTheSameConfig) {
    FakeJobRunner runner;
    const auto dir = ts::test::freshDir("sweep_processes_order");
    const auto result = ts::runSweep(processesSweep("4, 1,2,1"), runner, dir);
    EXPECT_EQ(runner.processes, (std::vector<int>{1, 2, 4})); // duplicate 1 dropped
    ASSERT_EQ(result.rows.size(), 3u);
    for (const auto& c : runner.ran) {
        EXPECT_EQ(c.batch_size, runner.ran[0].batch_size); // a per-rank batch, unchanged
        EXPECT_EQ(c.max_steps, 6);
    }
    EXPECT_EQ(runner.dirs[1], dir / "point_1_processes=2");
    EXPECT_EQ(result.rows[2].point.processes, 4);
    EXPECT_TRUE(std::isnan(result.rows[0].allreduce_ms)); // one process: no communication
    EXPECT_DOUBLE_EQ(result.rows[2].allreduce_ms, 41.5);
    EXPECT_DOUBLE_EQ(result.rows[2].overlap_pct, 75);
    EXPECT_DOUBLE_EQ(result.rows[2].comm_wait_ms, 10);
}

TEST(ProcessesSweep, CountsThatAreNotProcessesAreNamed) {
    FakeJobRunner runner;
    for (const char* bad : {"0", "1.5", "two", "2000", "-1"}) {
        try {
            ts::expandSweep(processesSweep(std::string("1,") + bad), ts::precisionSupportProblem);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const ts::ConfigError& e) {
            EXPECT_NE(std::string(e.what()).find(std::string("\"") + bad + "\""), std::string::npos)
                << e.what();
            EXPECT_NE(std::string(e.what()).find("number of processes"), std::string::npos);
        }
    }
    auto unknown = processesSweep("1,2");
    unknown.axes[0].key = "procs";
    try {
        ts::expandSweep(unknown, ts::precisionSupportProblem);
        ADD_FAILURE() << "procs was accepted";
    } catch (const ts::ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("nor processes"), std::string::npos) << e.what();
    }
}

TEST(ProcessesSweep, ARunnerOfOneProcessFailsTheLargerJobsAndSaysWhy) {
    ts::test::FakePointRunner runner; // the default runJob: one process only
    runner.behavior = [](const ts::ExperimentConfig&) { return completedPoint(100, 0); };
    const auto result =
        ts::runSweep(processesSweep("1,2"), runner, ts::test::freshDir("sweep_processes_one"));
    EXPECT_EQ(result.rows[0].result.outcome, PointOutcome::Completed);
    EXPECT_EQ(result.rows[1].result.outcome, PointOutcome::Failed);
    EXPECT_NE(result.rows[1].result.message.find("processes=2"), std::string::npos);
    EXPECT_EQ(runner.ran.size(), 1u);
}

TEST(ProcessesSweep, SpeedupAndEfficiencyAreAgainstTheFewestProcessesOnEachLine) {
    FakeJobRunner runner;
    runner.failing = {1}; // then 2 processes are each line's baseline
    auto spec = processesSweep("1,2,4");
    spec.axes.push_back({"batch_size", ts::parseSweepValues("8,16", "--values2")});
    const auto result = ts::runSweep(spec, runner, ts::test::freshDir("sweep_processes_grid"));
    ASSERT_EQ(result.rows.size(), 6u);
    for (const auto& row : result.rows) {
        const auto f = ts::scalingFigures(result, row);
        if (row.point.processes == 1) {
            EXPECT_TRUE(std::isnan(f.speedup));
            continue;
        }
        EXPECT_EQ(f.baseline_processes, 2);
        const double expected = std::pow(row.point.processes / 2.0, 0.8);
        EXPECT_NEAR(f.speedup, expected, 1e-9) << row.point.label();
        EXPECT_NEAR(f.efficiency, expected / (row.point.processes / 2.0), 1e-9);
    }
    const auto chart = ts::sweepScalingChart(result);
    ASSERT_EQ(chart.series.size(), 3u); // batch_size=8, batch_size=16, ideal
    EXPECT_EQ(chart.series[0].name, "batch_size=8");
    EXPECT_EQ(chart.series[2].name, "ideal (linear)");
    EXPECT_TRUE(chart.series[2].dashed);
    // Ideal from the baseline of 2 processes: nothing at 1, then 1 and 2.
    EXPECT_TRUE(std::isnan(chart.series[2].ys[0]));
    EXPECT_EQ(chart.series[2].ys[1], 1.0);
    EXPECT_EQ(chart.series[2].ys[2], 2.0);
    EXPECT_TRUE(std::isnan(chart.series[0].ys[0])); // 1 process failed
    EXPECT_NEAR(chart.series[1].ys[2], std::pow(2.0, 0.8), 1e-9);
}

TEST(ProcessesSweep, TheReportHasScalingColumnsAChartAndReadsBack) {
    FakeJobRunner runner;
    const auto dir = ts::test::freshDir("sweep_processes_report");
    const auto result = ts::runSweep(processesSweep("1,2,4"), runner, dir);
    ts::test::ScopedRecordingRenderer charts;
    ts::writeSweepReport(result, dir);
    ASSERT_EQ(charts->specs.count(ts::sweep_files::kScalingPng), 1u);
    const auto& drawn = std::get<ts::chart::XyChart>(charts->specs[ts::sweep_files::kScalingPng]);
    ASSERT_EQ(drawn.series.size(), 2u); // measured, ideal
    EXPECT_EQ(drawn.series[0].point_labels[1], "1.74x, 87%");
    EXPECT_EQ(drawn.x_ticks.back().second, "4");
    const std::string csv = ts::test::readTextFile(dir / ts::sweep_files::kCsv);
    EXPECT_NE(csv.find("speedup,scaling_efficiency,allreduce_ms_per_step,comm_wait_ms_per_step,"
                       "overlap_pct,message"),
              std::string::npos);
    const std::string md = ts::test::readTextFile(dir / ts::sweep_files::kMarkdown);
    EXPECT_NE(md.find("processes=2: 1.74x the images/s of 1 (87% scaling efficiency; allreduce "
                      "40.5 ms per step, 75% of it hidden behind backward, 10.0 ms exposed)"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("![speedup](sweep_scaling.png)"), std::string::npos);
    const std::string table = ts::sweepTable(result);
    EXPECT_NE(table.find("efficiency"), std::string::npos);
    EXPECT_NE(table.find("1.74x"), std::string::npos);

    const auto back = ts::parseSweepCsv(csv, "sweep.csv");
    ASSERT_EQ(back.rows.size(), 3u);
    EXPECT_EQ(back.rows[2].point.processes, 4);
    EXPECT_DOUBLE_EQ(back.rows[2].allreduce_ms, 41.5);
    EXPECT_TRUE(std::isnan(back.rows[0].overlap_pct));
    EXPECT_NEAR(ts::scalingFigures(back, back.rows[2]).efficiency,
                ts::scalingFigures(result, result.rows[2]).efficiency, 1e-6);

    std::string bad = csv;
    bad.replace(bad.find("\n2,4,") + 3, 1, "x");
    EXPECT_THROW(ts::parseSweepCsv(bad, "sweep.csv"), ts::ReportFormatError);
    // Three key columns (hand-edited): refused, never read past the axes.
    EXPECT_THROW(ts::parseSweepCsv("point,a,b,processes,status\n0,1,2,2,ok\n", "sweep.csv"),
                 ts::ReportFormatError);
}

TEST(Cancellation, NestedRegistrationsAreAllReachedInnermostFirstAndLateOnesAtOnce) {
    std::vector<std::string> calls;
    {
        ts::CancelRegistration sweep([&] { calls.push_back("sweep"); });
        {
            ts::CancelRegistration job([&] { calls.push_back("job"); });
            ts::cancelRunningExperiment();
        }
        EXPECT_EQ(calls, (std::vector<std::string>{"job", "sweep"}));
        ts::cancelRunningExperiment(); // the job has ended: the sweep is still reached
        EXPECT_EQ(calls.back(), "sweep");
        EXPECT_EQ(calls.size(), 3u);
    }
    ts::cancelRunningExperiment(); // nothing registered
    EXPECT_EQ(calls.size(), 3u);
    // Sticky: what registers after Ctrl-C (a job's launcher still setting up
    // its rendezvous) is cancelled as it registers.
    EXPECT_TRUE(ts::cancelRequested());
    {
        ts::CancelRegistration late([&] { calls.push_back("late"); });
        EXPECT_EQ(calls.back(), "late");
    }
    ts::resetCancellationForTests(); // the other tests of this process run commands
    EXPECT_FALSE(ts::cancelRequested());
    {
        ts::CancelRegistration fresh([&] { calls.push_back("fresh"); });
    }
    EXPECT_EQ(calls.back(), "late");
}
