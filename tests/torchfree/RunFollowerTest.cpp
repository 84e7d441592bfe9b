// Following a run directory that another process writes (the GUI's view of a
// job it launched): steps.csv read line by line as it grows, a partly written
// row left for the next poll, run.json's start, epochs and end each reported
// once, and every rank's own steps.
#include <chrono>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "report/RunDirectory.h"
#include "report/RunFollower.h"
#include "report/StepsCsv.h"

namespace {

namespace fs = std::filesystem;

ts::StepRecord step(int64_t global, double ms) {
    ts::StepRecord s;
    s.global_step = global;
    s.step = global;
    s.batch_size = 8;
    s.step_ms = ms;
    s.images_per_sec = 8000 / ms;
    s.comm_wait_ms = ms / 10;
    return s;
}

ts::RunInfo info() {
    ts::RunInfo i;
    i.config.name = "followed";
    i.steps_per_epoch = 4;
    return i;
}

} // namespace

TEST(StepsCsvTail, ReadsWholeRowsAsTheFileGrows) {
    const auto dir = ts::test::freshDir("follow_tail");
    const auto file = dir / "steps.csv";
    ts::StepsCsvTail tail(file);
    EXPECT_TRUE(tail.readNew().empty()); // not written yet
    std::ofstream out(file);
    const std::string header = ts::stepsCsvHeader();
    out << header.substr(0, 10) << std::flush; // half a header
    EXPECT_TRUE(tail.readNew().empty());
    out << header.substr(10) << std::flush;
    EXPECT_TRUE(tail.readNew().empty());
    const std::string row = ts::stepsCsvRow(step(0, 100));
    out << row << row.substr(0, row.size() / 2) << std::flush; // one row and a half
    auto got = tail.readNew();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_DOUBLE_EQ(got[0].step_ms, 100);
    out << row.substr(row.size() / 2) << ts::stepsCsvRow(step(2, 300)) << std::flush;
    got = tail.readNew();
    ASSERT_EQ(got.size(), 2u); // the completed half row and the next
    EXPECT_EQ(got[1].global_step, 2);
    EXPECT_TRUE(tail.readNew().empty());
    // A malformed row between good ones: skipped and named, the others kept.
    out << "1,2,oops\n" << ts::stepsCsvRow(step(3, 400)) << std::flush;
    got = tail.readNew();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].global_step, 3);
    const auto errors = tail.takeErrors();
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("steps.csv:5"), std::string::npos) << errors[0];
    EXPECT_TRUE(tail.takeErrors().empty());
}

TEST(StepsCsvTail, AForeignFileIsNamed) {
    const auto dir = ts::test::freshDir("follow_foreign");
    std::ofstream(dir / "steps.csv") << "time,value\n1,2\n";
    ts::StepsCsvTail tail(dir / "steps.csv");
    EXPECT_THROW(tail.readNew(), ts::RunFormatError);
}

TEST(RunFollower, ReportsEachStepEpochAndTheEndOnceAsTheJobWritesThem) {
    const auto dir = ts::test::freshDir("follow_job");
    ts::RunFollower follower(dir);
    EXPECT_TRUE(follower.poll().empty()); // nothing written yet

    ts::RunRecorder job(dir);
    ts::RunRecorder rank0(dir / "ranks" / "0");
    ts::RunRecorder rank1(dir / "ranks" / "1");
    job.onRunStarted(info());
    rank0.onRunStarted(info());
    rank1.onRunStarted(info());
    auto news = follower.poll();
    ASSERT_TRUE(news.started);
    EXPECT_EQ(news.started->config.name, "followed");
    EXPECT_TRUE(news.steps.empty());
    EXPECT_FALSE(news.finished);

    job.onStep(step(0, 50));
    rank0.onStep(step(0, 100));
    rank1.onStep(step(0, 110));
    rank1.onStep(step(1, 120));
    news = follower.poll();
    EXPECT_FALSE(news.started); // once
    ASSERT_EQ(news.steps.size(), 1u);
    ASSERT_EQ(news.rank_steps.size(), 3u);
    EXPECT_EQ(news.rank_steps[0].first, 0);
    EXPECT_EQ(news.rank_steps[2].first, 1);
    EXPECT_DOUBLE_EQ(news.rank_steps[2].second.step_ms, 120);

    ts::EpochRecord epoch;
    epoch.steps = 1;
    job.onEpoch(epoch);
    news = follower.poll();
    EXPECT_EQ(news.epochs.size(), 1u);
    EXPECT_TRUE(follower.poll().empty()); // nothing new: nothing reported

    job.onStep(step(1, 55));
    ts::RunSummary done;
    done.status = ts::RunStatus::Completed;
    done.steps_completed = 2;
    job.onRunFinished(done);
    news = follower.poll();
    EXPECT_EQ(news.steps.size(), 1u); // the last step comes with the end
    ASSERT_TRUE(news.finished);
    EXPECT_EQ(news.finished->steps_completed, 2);
    EXPECT_TRUE(follower.poll().empty()); // the end is reported once

    const auto ranks = ts::loadRankSteps(dir);
    ASSERT_EQ(ranks.size(), 2u);
    EXPECT_EQ(ranks.at(0).size(), 1u);
    EXPECT_EQ(ranks.at(1).size(), 2u);
    EXPECT_TRUE(ts::loadRankSteps(dir / "ranks" / "0").empty()); // a single process has none
}

// A file replaced by a shorter one (a resumed job cuts steps.csv back to its
// checkpoint, aside and renamed) is read again from its start; the steps
// already returned are not repeated, the new ones come.
TEST(StepsCsvTail, AFileCutBackIsReadAgainWithoutRepeatingSteps) {
    const auto dir = ts::test::freshDir("follow_cut_back");
    const auto file = dir / "steps.csv";
    {
        std::ofstream out(file);
        out << ts::stepsCsvHeader();
        for (int i = 0; i < 6; ++i)
            out << ts::stepsCsvRow(step(i, 100 + i));
    }
    ts::StepsCsvTail tail(file);
    EXPECT_EQ(tail.readNew().size(), 6u);
    {
        std::ofstream out(dir / "steps.csv.tmp");
        out << ts::stepsCsvHeader();
        for (int i = 0; i < 4; ++i)
            out << ts::stepsCsvRow(step(i, 100 + i));
        for (int i = 4; i < 8; ++i) // steps 4 and 5 done again, then 6 and 7
            out << ts::stepsCsvRow(step(i, 200 + i));
    }
    fs::rename(dir / "steps.csv.tmp", file);
    const auto got = tail.readNew();
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].global_step, 6);
    EXPECT_DOUBLE_EQ(got[0].step_ms, 206);
    EXPECT_EQ(got[1].global_step, 7);
    EXPECT_TRUE(tail.takeErrors().empty());

    // Cut shorter in place (truncated), then written on.
    {
        std::ofstream out(file, std::ios::trunc);
        out << ts::stepsCsvHeader() << ts::stepsCsvRow(step(0, 100))
            << ts::stepsCsvRow(step(8, 308));
    }
    const auto after = tail.readNew();
    ASSERT_EQ(after.size(), 1u);
    EXPECT_EQ(after[0].global_step, 8);
}

// The GUI resuming a job in its folder: the interrupted run's run.json
// (cancelled), steps.csv and rank folders are there before the job starts.
// None of it is reported (not a start, not an end, not its steps past the
// checkpoint) until the job rewrites it; then the job's whole history comes.
TEST(RunFollower, AResumedJobsOldRecordsWaitUntilTheJobRewritesThem) {
    const auto dir = ts::test::freshDir("follow_resumed");
    {
        ts::RunRecorder old_job(dir);
        ts::RunRecorder old_rank(dir / "ranks" / "0");
        old_job.onRunStarted(info());
        old_rank.onRunStarted(info());
        for (int i = 0; i < 6; ++i) {
            old_job.onStep(step(i, 50));
            old_rank.onStep(step(i, 100));
        }
        ts::RunSummary stopped;
        stopped.status = ts::RunStatus::Cancelled;
        stopped.steps_completed = 6;
        old_job.onRunFinished(stopped);
    }
    // The old records are older than the job's launch file.
    const auto past = fs::file_time_type::clock::now() - std::chrono::seconds(30);
    for (const auto& f :
         {dir / "run.json", dir / "steps.csv", dir / "ranks/0/steps.csv", dir / "ranks/0/run.json"})
        fs::last_write_time(f, past);
    std::ofstream(dir / "launch_config.json") << "{}";
    ts::RunFollower follower(dir, ts::fileWriteTimeNs(dir / "launch_config.json"));
    EXPECT_TRUE(follower.poll().empty());

    // The job resumes from its checkpoint at step 4: each recorder cuts its
    // records back to steps 0-3, then the steps go on.
    ts::RunInfo resumed = info();
    resumed.config.resume = dir.string();
    resumed.start_epoch = 1;
    resumed.start_global_step = 4;
    ts::RunRecorder job(dir);
    ts::RunRecorder rank(dir / "ranks" / "0");
    job.onRunStarted(resumed);
    rank.onRunStarted(resumed);
    job.onStep(step(4, 60));
    rank.onStep(step(4, 110));
    auto news = follower.poll();
    ASSERT_TRUE(news.started);
    EXPECT_FALSE(news.finished) << "the interrupted run's end is not the job's";
    ASSERT_EQ(news.steps.size(), 5u);
    EXPECT_DOUBLE_EQ(news.steps[4].step_ms, 60);
    ASSERT_EQ(news.rank_steps.size(), 5u);
    EXPECT_DOUBLE_EQ(news.rank_steps[4].second.step_ms, 110);
    EXPECT_TRUE(follower.poll().empty());
}
