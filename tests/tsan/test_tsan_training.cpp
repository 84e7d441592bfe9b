// The GUI's training bridge under ThreadSanitizer: RunController starts a run
// on its BackgroundJob's thread (RunWorker over the backend's training run),
// the run reports through the LiveBuffer, the ~30 Hz drain takes it on this
// thread, and Stop or the controller's destruction come at any moment. Built
// twice (tests/tsan/CMakeLists.txt): over the real engine (Trainer, data
// loader workers, checkpoints, run recorder) and over a scripted backend
// without LibTorch, which CI runs. Besides what ThreadSanitizer reports, each
// run must end once, with every step drained once and in order. GoogleTest,
// not QtTest: QtTest's watchdog thread is joined inside Qt where TSan cannot
// see it, which it reports as a race.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>
#include <QThread>
#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "TestPaths.h"
#include "backend/TorchBackendLoader.h"
#include "config/ExperimentConfig.h"
#include "report/RunDirectory.h"
#include "training/RunController.h"

#if TRAINSCOPE_TSAN_ENGINE
namespace ts::gui {
const TorchBackend* linkedTorchBackend(); // app/gui/TorchBackendModule.cpp
} // namespace ts::gui
#else
#include "ScriptedBackend.h"
#endif

using namespace ts;
using namespace ts::gui;

namespace {

// Uninstrumented LibTorch code runs a few hundred times slower than the
// instrumented rest would suggest; minutes, not seconds, for a stuck run.
constexpr int kTimeoutMs = 300000;

// EngineTestSupport's tiny run (ResNet-18, CIFAR stem, 16x16 synthetic
// images, batch 8, one thread), made to exercise the threads.
ExperimentConfig tinyConfig() {
    ExperimentConfig c = ts::test::tinyConfig();
    c.name = "tsan";
    c.epochs = 2;
#if TRAINSCOPE_TSAN_ENGINE
    // Two data loader workers, a profiled step, validation and checkpoints
    // at each epoch's end.
    c.synthetic_samples = 48;
    c.workers = 2;
    c.profile.enabled = true;
    c.profile.wait = 1;
    c.profile.warmup = 0;
    c.profile.active = 1;
#else
    c.synthetic_samples = 8 * 400; // 400 scripted steps an epoch, ~0.5 ms each
#endif
    return c;
}

// What the GUI saw of one run.
struct Seen {
    std::vector<int64_t> steps; // global steps, in the order drained
    int epochs = 0;
    int started = 0;
    int finished_updates = 0;
    int outcomes = 0;
    RunOutcome outcome;
    std::map<int, std::vector<int64_t>> rank_steps; // a job's ranks' own steps
};

void watch(RunController& controller, Seen& seen) {
    QObject::connect(&controller, &RunController::updated, [&seen](const LiveUpdate& u) {
        seen.started += u.started ? 1 : 0;
        for (const StepRecord& s : u.steps)
            seen.steps.push_back(s.global_step);
        seen.epochs += int(u.epochs.size());
        seen.finished_updates += u.finished ? 1 : 0;
        for (const auto& [rank, step] : u.rank_steps)
            seen.rank_steps[rank].push_back(step.global_step);
    });
    QObject::connect(&controller, &RunController::runFinished, [&seen](const RunOutcome& o) {
        ++seen.outcomes;
        seen.outcome = o;
    });
}

// Runs this thread's event loop (the drain's timer, queued signals) until
// `done` or the timeout.
template <typename Done> bool waitFor(Done done, int timeout_ms = kTimeoutMs) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!done()) {
        if (std::chrono::steady_clock::now() > until) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        QThread::msleep(1);
    }
    return true;
}

void spin(int ms) {
    waitFor([] { return false; }, ms);
}

bool consecutiveFromZero(const std::vector<int64_t>& steps) {
    for (size_t i = 0; i < steps.size(); ++i)
        if (steps[i] != int64_t(i)) return false;
    return true;
}

} // namespace

// When Stop comes: at once (the model and data still loading), once the run
// started, or once this many steps were drained; never near the run's end,
// so that every stop after a step lands mid-training on any machine.
constexpr int kAtOnce = -2, kStarted = -1;
#if TRAINSCOPE_TSAN_ENGINE
constexpr int kStopMoments[] = {kAtOnce, kStarted, 1, 4, 7}; // of 12 steps
#else
constexpr int kStopMoments[] = {kAtOnce, kStarted, 1, 50, 400, 600}; // of 800
#endif

// Runs the event loop until the moment `at` (kStopMoments) has come.
void waitForMoment(int at, const Seen& seen) {
    if (at == kAtOnce) return;
    ASSERT_TRUE(waitFor([&] {
        return at == kStarted ? seen.started > 0 : int(seen.steps.size()) >= at;
    })) << "the run did not get there";
}

class TrainingThreads : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
#if TRAINSCOPE_TSAN_ENGINE
        registerTorchBackend(linkedTorchBackend());
#else
        registerTorchBackend(&ts::test::scriptedBackend());
#endif
    }
    QString runsRoot(const QString& name) const {
        return root_.filePath(name);
    }

private:
    QTemporaryDir root_;
};

TEST_F(TrainingThreads, ARunDrainedByTheGuiShowsEveryStepOnceInOrder) {
    RunController controller;
    controller.setRunsRoot(runsRoot(QStringLiteral("whole")));
    Seen seen;
    watch(controller, seen);
    controller.start(tinyConfig());
    ASSERT_TRUE(controller.isRunning());
    ASSERT_TRUE(waitFor([&] { return seen.outcomes == 1; }));
    EXPECT_EQ(seen.outcome.summary.status, RunStatus::Completed) << seen.outcome.summary.error;
    EXPECT_EQ(seen.started, 1);
    EXPECT_EQ(seen.finished_updates, 1);
    EXPECT_EQ(seen.epochs, 2);
    EXPECT_TRUE(consecutiveFromZero(seen.steps));
    EXPECT_EQ(int64_t(seen.steps.size()), seen.outcome.summary.steps_completed);
    const RunRecord run = loadRun(seen.outcome.runDir.toStdString());
    EXPECT_EQ(run.summary.status, RunStatus::Completed);
    EXPECT_EQ(run.steps.size(), seen.steps.size());
    EXPECT_FALSE(controller.isRunning());
}

namespace {

// What the GUI starts: a run in this process, or with `processes` > 1 a
// data-parallel job, launched as tsan_scripted_launcher where it is built.
struct Launch {
    ExperimentConfig config;
    int processes = 1;
};

void startIn(RunController& controller, const Launch& launch) {
#if !TRAINSCOPE_TSAN_ENGINE
    controller.setCliPath(QString::fromUtf8(TRAINSCOPE_SCRIPTED_LAUNCHER));
#endif
    controller.start(launch.config, launch.processes);
}

// Stop (twice, as an impatient user does) at the moment `at`: the worker is
// joined, the run ends once as cancelled and keeps what it reported.
Seen stopAt(const QString& runs_root, const Launch& launch, int at) {
    RunController controller;
    controller.setRunsRoot(runs_root);
    Seen seen;
    watch(controller, seen);
    int stops = 0;
    QObject::connect(&controller, &RunController::stopRequested, [&stops] { ++stops; });
    startIn(controller, launch);
    waitForMoment(at, seen);
    controller.stop();
    controller.stop();
    if (!waitFor([&] { return seen.outcomes == 1; })) {
        ADD_FAILURE() << "the stopped run did not end";
        return seen;
    }
    EXPECT_EQ(seen.outcome.summary.status, RunStatus::Cancelled) << seen.outcome.summary.error;
    EXPECT_TRUE(consecutiveFromZero(seen.steps));
    EXPECT_EQ(int64_t(seen.steps.size()), seen.outcome.summary.steps_completed);
    EXPECT_EQ(stops, 2); // the run was still going: each click was taken
    EXPECT_FALSE(controller.isRunning());
    spin(2 * RunController::kTickMs); // nothing arrives after the end
    EXPECT_EQ(seen.outcomes, 1);
    if (at >= 1) {
        EXPECT_GE(int(seen.steps.size()), at);
    }
    return seen;
}

// Closing the window at the moment `at` destroys the controller: it stops
// and joins the worker before what the worker uses goes away, and the run
// recorded its end (cancelled) before that.
Seen destroyAt(const QString& runs_root, const Launch& launch, int at) {
    auto controller = std::make_unique<RunController>();
    controller->setRunsRoot(runs_root);
    Seen seen;
    watch(*controller, seen);
    startIn(*controller, launch);
    const std::filesystem::path dir = controller->currentRunDir().toStdString();
    waitForMoment(at, seen);
    controller.reset();
    spin(2 * RunController::kTickMs);
    EXPECT_EQ(seen.outcomes, 0); // the queued end went with the controller
    EXPECT_TRUE(consecutiveFromZero(seen.steps));
    if (std::filesystem::exists(dir / run_files::kRunJson)) {
        const RunRecord run = loadRun(dir);
        EXPECT_EQ(run.summary.status, RunStatus::Cancelled);
        EXPECT_GE(run.steps.size(), seen.steps.size());
    }
    return seen;
}

} // namespace

// Stop while the model loads, in the first steps, mid-epoch and near the
// end.
TEST_F(TrainingThreads, StopAtAnyMomentEndsTheRunOnceAndKeepsItsSteps) {
    for (int at : kStopMoments) {
        SCOPED_TRACE(at);
        stopAt(runsRoot(QStringLiteral("stop%1").arg(at + 2)), Launch{tinyConfig()}, at);
    }
}

TEST_F(TrainingThreads, DestroyingTheControllerMidRunJoinsTheWorker) {
    for (int at : kStopMoments) {
        SCOPED_TRACE(at);
        destroyAt(runsRoot(QStringLiteral("closed%1").arg(at + 2)), Launch{tinyConfig()}, at);
    }
}

#if !TRAINSCOPE_TSAN_ENGINE
// A data-parallel job started from the GUI (JobWorker): its ranks are
// processes, here tsan_scripted_launcher's, which the job's thread follows
// through the run directory while the drain takes what it found on this
// thread; Stop is a signal to the launcher (SIGTERM while it starts, SIGINT
// once it trains). Not in the engine build: the real launcher's ranks need
// LibTorch and Gloo uninstrumented.
namespace {

constexpr int kRanks = 2;
// Of the job's 400 steps (2 ms each). JobWorker reads the run directory
// every 100 ms, so the GUI sees a step some 50 steps after the launcher took
// it: the last moment leaves 250 (half a second) for Stop to land mid-job.
constexpr int kJobStopMoments[] = {kAtOnce, kStarted, 1, 50, 150};

ExperimentConfig jobConfig() {
    ExperimentConfig c = tinyConfig();
    c.synthetic_samples = 8 * 200; // 200 steps an epoch, two epochs
    return c;
}

// Every rank's own steps, each consecutive from zero and as many as the
// job's.
void expectRankSteps(const Seen& seen) {
    ASSERT_EQ(int(seen.rank_steps.size()), seen.steps.empty() ? 0 : kRanks);
    for (const auto& [rank, steps] : seen.rank_steps) {
        SCOPED_TRACE(rank);
        EXPECT_TRUE(consecutiveFromZero(steps));
        EXPECT_EQ(steps.size(), seen.steps.size());
    }
}

} // namespace

TEST_F(TrainingThreads, ADataParallelJobIsFollowedToItsEndEveryStepOnce) {
    RunController controller;
    controller.setRunsRoot(runsRoot(QStringLiteral("job")));
    Seen seen;
    watch(controller, seen);
    startIn(controller, Launch{jobConfig(), kRanks});
    ASSERT_TRUE(controller.isRunning());
    ASSERT_TRUE(waitFor([&] { return seen.outcomes == 1; }));
    EXPECT_EQ(seen.outcome.summary.status, RunStatus::Completed) << seen.outcome.summary.error;
    EXPECT_EQ(seen.started, 1);
    EXPECT_EQ(seen.epochs, 2);
    EXPECT_EQ(seen.steps.size(), 400u);
    EXPECT_TRUE(consecutiveFromZero(seen.steps));
    EXPECT_EQ(int64_t(seen.steps.size()), seen.outcome.summary.steps_completed);
    expectRankSteps(seen);
    EXPECT_FALSE(controller.isRunning());
}

// Stop while the launcher starts (its ranks not yet listening: SIGTERM) and
// while it trains (SIGINT): the job's thread signals it and waits for it;
// the ranks' steps are all there too.
TEST_F(TrainingThreads, StoppingADataParallelJobAtAnyMomentEndsItOnce) {
    for (int at : kJobStopMoments) {
        SCOPED_TRACE(at);
        expectRankSteps(
            stopAt(runsRoot(QStringLiteral("jobstop%1").arg(at + 2)), {jobConfig(), kRanks}, at));
    }
}

TEST_F(TrainingThreads, DestroyingTheControllerMidJobJoinsItsThread) {
    for (int at : kJobStopMoments) {
        SCOPED_TRACE(at);
        destroyAt(runsRoot(QStringLiteral("jobclosed%1").arg(at + 2)), {jobConfig(), kRanks}, at);
    }
}

// A user's script (scriptrun): the socket, ProbeRank and the LiveBuffer on
// the job's thread, the stand-in interpreter streaming 1,000 steps a second.
namespace {

scriptrun::ScriptRunOptions streamingScript(const QTemporaryDir& dir, int steps) {
    QDir(dir.path()).mkpath(QStringLiteral("probe/trainscope_probe"));
    std::ofstream(dir.filePath(QStringLiteral("probe/trainscope_probe/__main__.py")).toStdString());
    qputenv("TRAINSCOPE_PROBE_PATH", dir.filePath(QStringLiteral("probe")).toUtf8());
    const std::string scenario = dir.filePath(QStringLiteral("stream.txt")).toStdString();
    std::ofstream(scenario) << R"({"t":"hello","v":1,"pid":1,"rank":0,"world_size":1})"
                            << "\n#interruptible\n#steps " << steps << " 1000\n"
                            << R"({"t":"bye","status":"ok","exit_code":0,"steps":)" << steps
                            << "}\n";
    scriptrun::ScriptRunOptions options;
    options.python = std::string(TRAINSCOPE_TEST_DATA_DIR) + "/script_probe/fake_python.sh";
    options.script = scenario;
    return options;
}

} // namespace

TEST_F(TrainingThreads, AScriptsStepsAreDrainedOnceInOrderAndStopEndsItOnce) {
    for (int at : {-1, 0, 100}) { // to its end, Stop once started, Stop after 100 steps
        SCOPED_TRACE(at);
        QTemporaryDir dir;
        RunController controller;
        controller.setRunsRoot(dir.filePath(QStringLiteral("runs")));
        Seen seen;
        watch(controller, seen);
        controller.startScript(streamingScript(dir, 400));
        ASSERT_TRUE(controller.isRunning());
        if (at >= 0) {
            ASSERT_TRUE(waitFor([&] { return seen.started > 0 && int(seen.steps.size()) >= at; }));
            controller.stop();
        }
        ASSERT_TRUE(waitFor([&] { return seen.outcomes == 1; }));
        EXPECT_EQ(seen.outcome.summary.status, at < 0 ? RunStatus::Completed : RunStatus::Cancelled)
            << seen.outcome.summary.error;
        EXPECT_TRUE(consecutiveFromZero(seen.steps));
        EXPECT_EQ(int64_t(seen.steps.size()), seen.outcome.summary.steps_completed);
        if (at < 0) {
            EXPECT_EQ(seen.steps.size(), 400u);
        }
        spin(50);
        EXPECT_EQ(seen.outcomes, 1);
    }
}
#endif

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
