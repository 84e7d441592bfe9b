// A run interrupted and resumed into its own directory ends with records
// shaped like an uninterrupted run's: the epochs, steps and profile windows
// up to the checkpoint are kept, what was measured after it is dropped, the
// summary covers the whole run and a message and run.json's "resumed" say
// what happened. The recorder is driven as the engine drives it.
#include <filesystem>
#include <fstream>
#include <memory>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "EngineTestSupport.h"
#include "records/SummaryBuilder.h"
#include "report/RunContinuation.h"
#include "report/RunDirectory.h"
#include "report/StepsCsv.h"
#include "trace/Trace.h"

namespace {

namespace fs = std::filesystem;

constexpr int kStepsPerEpoch = 4;
constexpr int kEpochs = 3;

// The step as the engine measures it: `wall_s` on the clock of the process
// that runs it (`clock_start`: the process's first global step).
ts::StepRecord step(int64_t global, int64_t clock_start) {
    ts::StepRecord s;
    s.global_step = global;
    s.epoch = static_cast<int>(global / kStepsPerEpoch);
    s.step = global % kStepsPerEpoch;
    s.batch_size = 8;
    s.step_ms = 100 + 10 * global;
    s.images_per_sec = 8000 / s.step_ms;
    s.loss = 3.0 - 0.1 * double(global);
    s.wall_s = 0.1 * double(global - clock_start + 1);
    s.rss_bytes = 1000 + global;
    return s;
}

ts::EpochRecord epoch(int e) {
    ts::EpochRecord r;
    r.epoch = e;
    r.steps = kStepsPerEpoch;
    r.epoch_time_s = 0.4;
    r.train_loss = 2.0 - 0.5 * e;
    r.has_val = true;
    r.val_accuracy = 0.5 + 0.1 * e;
    return r;
}

ts::RunInfo info(const std::string& resume, int start_epoch) {
    ts::RunInfo i;
    i.config.name = "continued";
    i.config.epochs = kEpochs;
    i.config.warmup_steps_excluded = 1;
    i.config.resume = resume;
    i.steps_per_epoch = kStepsPerEpoch;
    i.start_epoch = start_epoch;
    i.start_global_step = int64_t(start_epoch) * kStepsPerEpoch;
    return i;
}

ts::ProfileCapture window(int index, int64_t first, int64_t last) {
    ts::ProfileCapture c;
    c.window = index;
    c.first_step = first;
    c.last_step = last;
    c.trace.source = "test";
    return c;
}

// Steps [from, to) with their epochs, on a process whose clock started at
// step `clock_start`; the engine's summary of them goes to `summary`.
void train(ts::RunRecorder& recorder, int64_t from, int64_t to, int64_t clock_start,
           ts::SummaryBuilder* summary = nullptr) {
    for (int64_t g = from; g < to; ++g) {
        recorder.onStep(step(g, clock_start));
        if (summary) summary->addStep(step(g, clock_start));
        if ((g + 1) % kStepsPerEpoch != 0) continue;
        recorder.onEpoch(epoch(int(g / kStepsPerEpoch)));
        if (summary) summary->addEpoch(epoch(int(g / kStepsPerEpoch)));
    }
}

ts::RunSummary finished(ts::RunStatus status, double seconds) {
    ts::RunSummary s;
    s.status = status;
    s.total_time_s = seconds;
    return s;
}

nlohmann::json runJson(const fs::path& dir) {
    std::ifstream in(dir / "run.json");
    return nlohmann::json::parse(in);
}

} // namespace

TEST(RunContinuation, AKilledRunResumedInPlaceEndsShapedLikeAnUninterruptedOne) {
    // The reference: one process, all three epochs, a profile window at steps 1-2.
    const auto whole = ts::test::freshDir("continue_whole");
    {
        ts::RunRecorder recorder(whole);
        ts::SummaryBuilder summary(1);
        recorder.onRunStarted(info("", 0));
        train(recorder, 0, 2, 0, &summary);
        recorder.onProfile(window(0, 1, 2));
        train(recorder, 2, kEpochs * kStepsPerEpoch, 0, &summary);
        recorder.onRunFinished(summary.build(ts::RunStatus::Completed, "", 1.2));
    }
    // Killed after step 9 (its checkpoint: the end of epoch 2 = step 8), with
    // a second window at steps 8-9 that the resumed process records again.
    const auto dir = ts::test::freshDir("continue_killed");
    {
        ts::RunRecorder recorder(dir);
        recorder.onRunStarted(info("", 0));
        train(recorder, 0, 2, 0);
        recorder.onProfile(window(0, 1, 2));
        train(recorder, 2, 10, 0);
        recorder.onProfile(window(1, 8, 9));
        recorder.onMessage(ts::LogLevel::Warning, "before the kill");
    } // no onRunFinished: run.json says running
    ASSERT_EQ(runJson(dir)["profile"].size(), 2u);
    {
        ts::RunRecorder recorder(dir);
        recorder.onMessage(ts::LogLevel::Info, "resumed from epoch_2.pt");
        recorder.onRunStarted(info(dir.string(), 2));
        recorder.onProfile(window(0, 8, 9)); // the session numbers from 0 again
        train(recorder, 8, kEpochs * kStepsPerEpoch, 8);
        recorder.onRunFinished(finished(ts::RunStatus::Completed, 0.5));
    }
    const ts::RunRecord ref = ts::loadRun(whole);
    const ts::RunRecord got = ts::loadRun(dir);
    ASSERT_EQ(got.steps.size(), ref.steps.size());
    for (size_t i = 0; i < got.steps.size(); ++i) {
        EXPECT_EQ(got.steps[i].global_step, int64_t(i));
        EXPECT_DOUBLE_EQ(got.steps[i].step_ms, ref.steps[i].step_ms);
        if (i > 0) {
            EXPECT_GT(got.steps[i].wall_s, got.steps[i - 1].wall_s) << "step " << i;
        }
    }
    ASSERT_EQ(got.epochs.size(), size_t(kEpochs));
    for (int e = 0; e < kEpochs; ++e)
        EXPECT_EQ(got.epochs[e].epoch, e);
    EXPECT_EQ(got.info.start_epoch, 0);
    EXPECT_EQ(got.info.start_global_step, 0);
    EXPECT_EQ(got.summary.status, ts::RunStatus::Completed);
    EXPECT_EQ(got.summary.steps_completed, ref.summary.steps_completed);
    EXPECT_EQ(got.summary.epochs_completed, kEpochs);
    EXPECT_DOUBLE_EQ(got.summary.median_step_ms, ref.summary.median_step_ms);
    EXPECT_DOUBLE_EQ(got.summary.best_val_accuracy, ref.summary.best_val_accuracy);
    EXPECT_DOUBLE_EQ(got.summary.final_train_loss, ref.summary.final_train_loss);
    EXPECT_EQ(got.summary.peak_rss_bytes, ref.summary.peak_rss_bytes);
    // The earlier process's time (to its last step, 1.0 s) plus the new one's.
    EXPECT_NEAR(got.summary.total_time_s, 1.0 + 0.5, 1e-9);

    // Two windows, as in the uninterrupted run's numbering: the first kept,
    // the one recorded again numbered after it, its old files replaced.
    ASSERT_EQ(got.profile.size(), 2u);
    EXPECT_EQ(got.profile[0]["window"], 0);
    EXPECT_EQ(got.profile[1]["window"], 1);
    EXPECT_EQ(got.profile[1]["first_step"], 8);
    for (const auto& w : got.profile)
        for (const auto& [kind, name] : w["files"].items())
            EXPECT_TRUE(fs::exists(dir / name.get<std::string>())) << name;

    const auto j = runJson(dir);
    const auto messages = j["messages"].dump();
    EXPECT_NE(messages.find("before the kill"), std::string::npos) << messages;
    EXPECT_NE(messages.find("resumed from epoch_2.pt"), std::string::npos) << messages;
    EXPECT_NE(messages.find("ended without finishing (killed or lost) after 10 steps; the 2 "
                            "steps it measured after that checkpoint are dropped"),
              std::string::npos)
        << messages;
    ASSERT_EQ(j["resumed"].size(), 1u);
    EXPECT_EQ(j["resumed"][0]["global_step"], 8);
    EXPECT_EQ(j["resumed"][0]["dropped_steps"], 2);
    EXPECT_EQ(j["resumed"][0]["earlier_status"], "running");
}

TEST(RunContinuation, EveryInterruptionIsKeptAndAnotherDirectoryStartsAfresh) {
    const auto dir = ts::test::freshDir("continue_twice");
    {
        ts::RunRecorder recorder(dir);
        recorder.onRunStarted(info("", 0));
        train(recorder, 0, 5, 0);
        recorder.onProfile(window(0, 3, 4)); // ends past the checkpoint: dropped
        recorder.onRunFinished(finished(ts::RunStatus::Cancelled, 0.6));
    }
    ASSERT_TRUE(fs::exists(dir / "trace.json"));
    {
        ts::RunRecorder recorder(dir); // resumed from epoch_1.pt, killed again
        recorder.onRunStarted(info((dir / "epoch_1.pt").string(), 1));
        train(recorder, 4, 9, 4);
    }
    {
        ts::RunRecorder recorder(dir);
        recorder.onRunStarted(info(dir.string(), 2));
        train(recorder, 8, 12, 8);
        recorder.onRunFinished(finished(ts::RunStatus::Completed, 0.4));
    }
    const auto got = ts::loadRun(dir);
    EXPECT_TRUE(got.profile.empty()) << got.profile.dump();
    for (const char* file : {"trace.json", "ops.csv", "memory.csv"})
        EXPECT_FALSE(fs::exists(dir / file)) << file << " of the dropped window";
    ASSERT_EQ(got.steps.size(), 12u);
    for (size_t i = 0; i < got.steps.size(); ++i)
        EXPECT_EQ(got.steps[i].global_step, int64_t(i));
    EXPECT_EQ(got.summary.epochs_completed, 3);
    const auto j = runJson(dir);
    ASSERT_EQ(j["resumed"].size(), 2u);
    EXPECT_EQ(j["resumed"][0]["earlier_status"], "cancelled");
    EXPECT_EQ(j["resumed"][0]["dropped_steps"], 1);
    EXPECT_EQ(j["resumed"][1]["earlier_status"], "running");
    EXPECT_EQ(j["resumed"][1]["dropped_steps"], 1);

    // Resumed from this run's checkpoint into another directory: fresh records
    // starting at the checkpoint, as before.
    const auto other = ts::test::freshDir("continue_other");
    {
        ts::RunRecorder recorder(other);
        recorder.onRunStarted(info(dir.string(), 2));
        train(recorder, 8, 12, 8);
        recorder.onRunFinished(finished(ts::RunStatus::Completed, 0.4));
    }
    const auto fresh = ts::loadRun(other);
    EXPECT_EQ(fresh.steps.size(), 4u);
    EXPECT_EQ(fresh.info.start_epoch, 2);
    EXPECT_FALSE(runJson(other).contains("resumed"));
}

TEST(RunContinuation, UnreadableEarlierRecordsAreLeftAsTheyAre) {
    const auto dir = ts::test::freshDir("continue_unreadable");
    std::ofstream(dir / "run.json") << "{ not json";
    std::ofstream(dir / "steps.csv") << "kept as it is\n";
    ts::RunRecorder recorder(dir);
    try {
        recorder.onRunStarted(info(dir.string(), 1));
        FAIL() << "continued unreadable records";
    } catch (const ts::RunFormatError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("run.json: not valid JSON"), std::string::npos) << what;
        EXPECT_NE(what.find("resume it into another directory (--out)"), std::string::npos) << what;
    }
    std::ifstream steps(dir / "steps.csv");
    std::string line;
    std::getline(steps, line);
    EXPECT_EQ(line, "kept as it is");
}

// A window's last_step of the wrong type is a broken run.json, named as one
// (it used to escape as nlohmann's type_error), and the records stay as they are.
TEST(RunContinuation, AProfileWindowWithoutAnIntegerLastStepIsARunFormatError) {
    for (const nlohmann::json& bad : {nlohmann::json("two"), nlohmann::json(1e99)}) {
        const auto dir = ts::test::freshDir("continue_bad_window");
        {
            ts::RunRecorder recorder(dir);
            recorder.onRunStarted(info("", 0));
            train(recorder, 0, 2, 0);
            recorder.onProfile(window(0, 1, 2));
        }
        nlohmann::json run = runJson(dir);
        run["profile"][0]["last_step"] = bad;
        std::ofstream(dir / "run.json") << run.dump(2);
        ts::RunRecorder recorder(dir);
        try {
            recorder.onRunStarted(info(dir.string(), 1));
            FAIL() << "continued a run.json whose window's last_step is " << bad.dump();
        } catch (const ts::RunFormatError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("run.json: a profile window's 'last_step' is "), std::string::npos)
                << what;
            EXPECT_EQ(what.find("json.exception"), std::string::npos) << what;
        }
        EXPECT_EQ(runJson(dir)["profile"][0]["last_step"], bad);
    }
}

TEST(RunContinuation, ResumeNamesTheDirectoryARunWritesInto) {
    const auto job = ts::test::freshDir("continue_job");
    fs::create_directories(job / "ranks" / "1");
    ts::ExperimentConfig config;
    config.resume = job.string();
    EXPECT_TRUE(ts::resumesInto(config, job));
    EXPECT_TRUE(ts::resumesInto(config, job / "ranks" / "1"));
    EXPECT_FALSE(ts::resumesInto(config, job / "ranks"));
    config.resume = (job / "final.pt").string();
    EXPECT_TRUE(ts::resumesInto(config, job));
    config.resume.clear();
    EXPECT_FALSE(ts::resumesInto(config, job));

    // Without a directory given, a run resuming a run directory writes there.
    std::ofstream(job / "run.json") << "{}";
    config.resume = job.string();
    EXPECT_EQ(ts::runDirectoryFor(job / "runs", config), job);
    config.resume = (job / "final.pt").string(); // a file: a new run directory
    const auto made = ts::runDirectoryFor(job / "runs", config);
    EXPECT_EQ(made.parent_path(), job / "runs");
}

// Two processes never write one run: a run resumed while it still trains is
// refused, and the lock goes with the writer.
TEST(RunContinuation, ARunBeingWrittenIsNotWrittenBySomeoneElse) {
    const auto dir = ts::test::freshDir("continue_locked");
    auto first = std::make_unique<ts::RunRecorder>(dir);
    try {
        ts::RunRecorder second(dir);
        FAIL() << "two recorders in one directory";
    } catch (const ts::RunFormatError& e) {
        EXPECT_NE(std::string(e.what()).find("another Trainscope process is writing this run"),
                  std::string::npos)
            << e.what();
    }
    first.reset();
    EXPECT_NO_THROW(ts::RunRecorder again(dir));
}

// Cancelled in the middle of an epoch and resumed from its final.pt: the
// engine's record of that epoch covers the steps after the resume, and the
// recorder counts the earlier ones too, weighted by their images.
TEST(RunContinuation, AnEpochResumedInTheMiddleCountsItsEarlierSteps) {
    const auto dir = ts::test::freshDir("continue_mid_epoch");
    {
        ts::RunRecorder recorder(dir);
        recorder.onRunStarted(info("", 0));
        train(recorder, 0, 6, 0); // epoch 0, then steps 4 and 5 of epoch 1
        recorder.onRunFinished(finished(ts::RunStatus::Cancelled, 0.6));
    }
    {
        ts::RunRecorder recorder(dir);
        ts::RunInfo resumed = info(dir.string(), 1);
        resumed.start_global_step = 6;
        recorder.onRunStarted(resumed);
        for (int64_t g = 6; g < 8; ++g)
            recorder.onStep(step(g, 6));
        ts::EpochRecord later = epoch(1); // steps 6 and 7: 16 images in 0.2 s
        later.steps = 2;
        later.epoch_time_s = 0.2;
        later.images_per_sec = 80;
        later.train_loss = 1.0;
        later.train_accuracy = 0.5;
        recorder.onEpoch(later);
        train(recorder, 8, 12, 6);
        recorder.onRunFinished(finished(ts::RunStatus::Completed, 0.5));
    }
    const auto got = ts::loadRun(dir);
    ASSERT_EQ(got.steps.size(), 12u);
    ASSERT_EQ(got.epochs.size(), 3u);
    const ts::EpochRecord& e = got.epochs[1];
    EXPECT_EQ(e.steps, 4);
    // Steps 4 and 5 took 140 and 150 ms and trained 8 images each (loss 2.6
    // and 2.5, none correct); the later part 16 images at loss 1.0, half
    // right. steps.csv keeps rates and times to a few digits: 1e-6.
    EXPECT_NEAR(e.epoch_time_s, 0.2 + 0.29, 1e-6);
    EXPECT_NEAR(e.images_per_sec, 32 / 0.49, 1e-6);
    EXPECT_NEAR(e.train_loss, (2.6 * 8 + 2.5 * 8 + 1.0 * 16) / 32, 1e-6);
    EXPECT_NEAR(e.train_accuracy, 0.5 * 16 / 32, 1e-6);
    EXPECT_EQ(got.epochs[2].steps, kStepsPerEpoch); // untouched
}

// A 2-rank job killed after step 9 and resumed in place from its epoch-2
// checkpoint: the ranks' figures the resumed processes gathered cover steps
// 8-11 only; the job's run.json gives each rank's figures over its whole
// history (its folder's steps.csv) and their sum as the job's rate, as the
// same job uninterrupted does.
TEST(RunContinuation, AResumedJobsRankFiguresCoverTheWholeRun) {
    auto rankStep = [](int rank, int64_t global, int64_t clock_start) {
        ts::StepRecord s = step(global, clock_start);
        s.step_ms += 50.0 * rank + 7.0 * double(global % 3); // ranks and steps differ
        s.images_per_sec = 8000 / s.step_ms;
        s.allreduce_ms = 5 + double(global);
        s.comm_wait_ms = 1 + 0.5 * double(global % 4);
        return s;
    };
    const auto job = ts::test::freshDir("continue_job_ranks");
    auto rankDir = [&](int r) { return job / "ranks" / std::to_string(r); };
    // The earlier processes: steps 0-9, then killed.
    {
        ts::RunRecorder job_recorder(job), r0(rankDir(0)), r1(rankDir(1));
        for (ts::RunRecorder* rec : {&job_recorder, &r0, &r1})
            rec->onRunStarted(info("", 0));
        for (int64_t g = 0; g < 10; ++g) {
            r0.onStep(rankStep(0, g, 0));
            r1.onStep(rankStep(1, g, 0));
            ts::StepRecord whole = rankStep(0, g, 0);
            whole.images_per_sec *= 2;
            job_recorder.onStep(whole);
        }
    }
    // Resumed from the job's directory at epoch 2 (step 8).
    ts::SummaryBuilder resumed0(1), resumed1(1);
    {
        ts::RunRecorder job_recorder(job), r0(rankDir(0)), r1(rankDir(1));
        for (ts::RunRecorder* rec : {&job_recorder, &r0, &r1})
            rec->onRunStarted(info(job.string(), 2));
        for (int64_t g = 8; g < 12; ++g) {
            r0.onStep(rankStep(0, g, 8));
            r1.onStep(rankStep(1, g, 8));
            resumed0.addStep(rankStep(0, g, 8));
            resumed1.addStep(rankStep(1, g, 8));
            ts::StepRecord whole = rankStep(0, g, 8);
            whole.images_per_sec *= 2;
            job_recorder.onStep(whole);
        }
        ts::RunSummary gathered = finished(ts::RunStatus::Completed, 0.5);
        gathered.distributed.world_size = 2;
        gathered.distributed.backend = "gloo";
        gathered.distributed.ranks = {resumed0.rankFigures(), resumed1.rankFigures()};
        gathered.distributed.ranks[1].rank = 1;
        gathered.distributed.ranks[1].host = "node-b";
        for (ts::RunRecorder* rec : {&r0, &r1, &job_recorder})
            rec->onRunFinished(gathered);
    }
    // The same ranks uninterrupted, steps 0-11.
    ts::SummaryBuilder whole0(1), whole1(1);
    for (int64_t g = 0; g < 12; ++g) {
        whole0.addStep(rankStep(0, g, 0));
        whole1.addStep(rankStep(1, g, 0));
    }
    const ts::RankSummary expected[] = {whole0.rankFigures(), whole1.rankFigures()};
    ASSERT_NE(expected[1].median_step_ms, resumed1.rankFigures().median_step_ms)
        << "the test needs the resumed part to differ from the whole";
    for (const fs::path& dir : {job, rankDir(0), rankDir(1)}) {
        SCOPED_TRACE(dir.string());
        const nlohmann::json run = runJson(dir);
        const auto& ranks = run["distributed"]["ranks"];
        ASSERT_EQ(ranks.size(), 2u);
        double global = 0;
        for (int r = 0; r < 2; ++r) {
            // steps.csv keeps times and rates to a few digits: 1e-6.
            EXPECT_NEAR(ranks[r]["median_step_ms"].get<double>(), expected[r].median_step_ms, 1e-6);
            EXPECT_NEAR(ranks[r]["median_images_per_sec"].get<double>(),
                        expected[r].median_images_per_sec, 1e-6);
            EXPECT_NEAR(ranks[r]["allreduce_ms_per_step"].get<double>(),
                        expected[r].allreduce_ms_per_step, 1e-6);
            EXPECT_NEAR(ranks[r]["comm_wait_ms_per_step"].get<double>(),
                        expected[r].comm_wait_ms_per_step, 1e-6);
            EXPECT_NEAR(ranks[r]["overlap_pct"].get<double>(), expected[r].overlap_pct, 1e-6);
            global += expected[r].median_images_per_sec;
        }
        EXPECT_EQ(ranks[1]["host"], "node-b"); // the gathered identity stays
        EXPECT_NEAR(run["summary"]["median_images_per_sec"].get<double>(), global, 1e-6);
    }
}
