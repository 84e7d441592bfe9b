// A data-parallel job started from the GUI's form (Processes = 2): the job
// runs as trainscope-cli's launcher, the Live view follows the job and each
// of its ranks while it trains, Stop ends every rank, the job's directory
// reopens with its ranks, and what cannot start says why.
#include <cmath>

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "GuiFixture.h"
#include "TestConfigs.h"
#include "TestPaths.h"
#include "WidgetTests.h"
#include "common/AppSettings.h"
#include "form/ExperimentForm.h"
#include "form/RunPanel.h"
#include "live/LiveView.h"
#include "live/RanksChart.h"
#include "report/RunDirectory.h"
#include "shell/ExperimentFiles.h"
#include "shell/LaunchOptions.h"
#include "training/JobWorker.h"
#include "training/RunController.h"

using namespace ts;
using namespace ts::gui;

namespace {

constexpr int kJobTimeoutMs = 240000;

// One core per rank, as a job on this 2-core machine should run.
ExperimentConfig jobConfig(int64_t steps) {
    ExperimentConfig c = testing::tinyConfig();
    c.name = "gui-job";
    c.threads = 1;
    c.synthetic_samples = 2 * 16 * steps;
    c.max_steps = steps;
    return c;
}

bool seesRank(const LiveView& live, int rank) {
    const auto it = live.history().rank_steps.find(rank);
    return it != live.history().rank_steps.end() && !it->second.empty();
}

} // namespace

class GuiJobTest : public QObject {
    Q_OBJECT
    Machine machine_;

private slots:
    void initTestCase() { machine_ = Machine::probe(); }

    void trainsAJobOfTwoProcessesAndFollowsItsRanksLive() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.controller()->setCliPath(QString::fromUtf8(TRAINSCOPE_CLI_PATH));
        window.form()->setConfig(jobConfig(30)); // long enough to be seen while it runs
        window.form()->setProcesses(2);
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        QSignalSpy started(window.controller(), &RunController::runStarted);
        QTest::mouseClick(window.runPanel()->startButton(), Qt::LeftButton);
        QVERIFY(window.controller()->isRunning());
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.at(0).at(0).value<RunLaunch>().processes, 2);
        QVERIFY(!window.form()->findChild<QSpinBox*>(QStringLiteral("processes"))->isEnabled());
        // Live: steps of the job and of both ranks arrive before the job ends.
        QTRY_VERIFY_WITH_TIMEOUT((seesRank(*window.page<LiveView>("live"), 0) &&
                                  seesRank(*window.page<LiveView>("live"), 1)) ||
                                     finished.count() == 1,
                                 kJobTimeoutMs);
        QCOMPARE(finished.count(), 0);
        QVERIFY(!window.page<LiveView>("live")->history().steps.empty());
        QVERIFY(window.page<LiveView>("live")->ranksChart()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kJobTimeoutMs);

        const auto outcome = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(outcome.summary.status, RunStatus::Completed);
        QCOMPARE(outcome.summary.distributed.world_size, 2);
        QCOMPARE(outcome.summary.steps_completed, int64_t(30));
        const LiveView& live = *window.page<LiveView>("live");
        QCOMPARE(live.history().steps.size(), size_t(30));
        QCOMPARE(live.history().rank_steps.at(0).size(), size_t(30));
        QCOMPARE(live.history().rank_steps.at(1).size(), size_t(30));
        QCOMPARE(live.history().epochs.size(), size_t(1));
        QCOMPARE(live.ranksChart()->rankCount(), 2);
        // The job's steps are rank 0's at the global rate (the ranks step in
        // lockstep); the ranks' own steps keep their share.
        for (size_t i = 0; i < 30; ++i) {
            const StepRecord& job = live.history().steps[i];
            const StepRecord& own = live.history().rank_steps.at(0)[i];
            QCOMPARE(job.global_step, own.global_step);
            // steps.csv keeps 9 significant digits.
            QVERIFY(std::abs(job.images_per_sec - 2 * own.images_per_sec) <=
                    1e-7 * job.images_per_sec);
        }
        const QDir dir(outcome.runDir);
        QVERIFY(dir.exists(QStringLiteral("ranks/1/steps.csv")));
        QVERIFY(dir.exists(QString::fromLatin1(JobWorker::kConfigFile)));
        QVERIFY(window.form()->findChild<QSpinBox*>(QStringLiteral("processes"))->isEnabled());

        // Opened again from disk, the job shows its ranks too.
        window.page<LiveView>("live")->showRun(loadRun(outcome.runDir.toStdString()));
        QCOMPARE(window.page<LiveView>("live")->history().rank_steps.size(), size_t(2));
        QVERIFY(window.page<LiveView>("live")->ranksChart()->isVisible());
        // A single-process run hides the ranks' row again.
        window.page<LiveView>("live")->clear();
        QVERIFY(!window.page<LiveView>("live")->ranksChart()->isVisible());
    }

    void stopEndsEveryRankAndKeepsWhatTheyMeasured() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.controller()->setCliPath(QString::fromUtf8(TRAINSCOPE_CLI_PATH));
        window.form()->setConfig(jobConfig(400));
        window.form()->setProcesses(2);
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        QTest::mouseClick(window.runPanel()->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.page<LiveView>("live")->history().steps.size() >= 2,
                                 kJobTimeoutMs);
        QTest::mouseClick(window.runPanel()->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 90000);
        const auto outcome = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(outcome.summary.status, RunStatus::Cancelled);
        QVERIFY(outcome.summary.steps_completed >= 2);
        QVERIFY(outcome.summary.steps_completed < 400);
        for (const char* rank : {"ranks/0", "ranks/1"}) {
            const RunRecord r = loadRun(QDir(outcome.runDir).filePath(rank).toStdString());
            QCOMPARE(r.summary.status, RunStatus::Cancelled);
            QCOMPARE(r.summary.steps_completed, outcome.summary.steps_completed);
        }
    }

    // A job stopped after its first epoch's checkpoint and resumed from the
    // GUI into its folder: the Live view shows the job's whole history once
    // (the steps up to the checkpoint, then the resumed ones), never the
    // interrupted run's steps past the checkpoint or its end.
    void aJobResumedInItsFolderShowsItsHistoryOnce() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.controller()->setCliPath(QString::fromUtf8(TRAINSCOPE_CLI_PATH));
        constexpr int64_t kSteps = 20; // per epoch
        ExperimentConfig c = jobConfig(kSteps);
        c.epochs = 3;
        c.checkpoint_every = 1;
        window.form()->setConfig(c);
        window.form()->setProcesses(2);
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        QTest::mouseClick(window.runPanel()->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.page<LiveView>("live")->history().steps.size() >=
                                         kSteps + 4 ||
                                     finished.count() == 1,
                                 kJobTimeoutMs);
        QTest::mouseClick(window.runPanel()->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 90000);
        const auto stopped = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(stopped.summary.status, RunStatus::Cancelled);
        QVERIFY(stopped.summary.steps_completed > kSteps);
        QVERIFY(stopped.summary.steps_completed < 2 * kSteps);

        // Resumed with its checkpoints spoilt, the job is refused: it failed,
        // whatever the interrupted run's run.json (cancelled) says.
        QDir dir(stopped.runDir);
        const QStringList checkpoints = dir.entryList({QStringLiteral("*.pt")}, QDir::Files);
        QVERIFY(!checkpoints.isEmpty());
        for (const QString& name : checkpoints) {
            QVERIFY(QFile::copy(dir.filePath(name), dir.filePath(name + QStringLiteral(".kept"))));
            QFile spoilt(dir.filePath(name));
            QVERIFY(spoilt.open(QIODevice::WriteOnly | QIODevice::Truncate));
            spoilt.write("not a checkpoint");
        }
        c.resume = stopped.runDir.toStdString();
        window.form()->setConfig(c);
        QTest::mouseClick(window.runPanel()->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, kJobTimeoutMs);
        const auto refused = finished.at(1).at(0).value<RunOutcome>();
        QCOMPARE(refused.summary.status, RunStatus::Failed);
        QVERIFY(!refused.summary.error.empty());
        QCOMPARE(refused.summary.steps_completed, int64_t(0));
        for (const QString& name : checkpoints) {
            QVERIFY(QFile::remove(dir.filePath(name)));
            QVERIFY(
                QFile::rename(dir.filePath(name + QStringLiteral(".kept")), dir.filePath(name)));
        }

        QTest::mouseClick(window.runPanel()->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 3, kJobTimeoutMs);
        const auto resumed = finished.at(2).at(0).value<RunOutcome>();
        QCOMPARE(resumed.summary.status, RunStatus::Completed);
        QCOMPARE(resumed.runDir, stopped.runDir);
        const LiveView& live = *window.page<LiveView>("live");
        QCOMPARE(live.history().steps.size(), size_t(3 * kSteps));
        for (size_t i = 0; i < live.history().steps.size(); ++i)
            QCOMPARE(live.history().steps[i].global_step, int64_t(i));
        for (int rank : {0, 1})
            QCOMPARE(live.history().rank_steps.at(rank).size(), size_t(3 * kSteps));
        QCOMPARE(live.history().epochs.size(), size_t(3));
    }

    // Stop pressed while the ranks are still meeting: the job ends at once as
    // cancelled.
    void stopWhileTheJobStartsCancelsIt() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.controller()->setCliPath(QString::fromUtf8(TRAINSCOPE_CLI_PATH));
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        window.controller()->start(jobConfig(400), 2);
        window.controller()->stop();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
        const auto outcome = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(outcome.summary.status, RunStatus::Cancelled);
        QVERIFY(outcome.summary.steps_completed < 400);
    }

    void aMissingLauncherIsNamedAndStartsNothing() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.controller()->setCliPath(QStringLiteral("/nonexistent/trainscope-cli"));
        QSignalSpy failed(window.controller(), &RunController::startFailed);
        window.controller()->start(jobConfig(4), 2);
        QCOMPARE(failed.count(), 1);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("/nonexistent/trainscope-cli")),
                 qPrintable(message));
        QVERIFY(!window.controller()->isRunning());
        QVERIFY(!QDir(fx.runsDir()).exists() || QDir(fx.runsDir()).isEmpty());
        window.controller()->start(jobConfig(4), 0);
        QCOMPARE(failed.count(), 2);
        QVERIFY(failed.at(1).at(0).toString().contains(QStringLiteral("Processes")));
    }

    void aJobTheLauncherRefusesReportsItsReason() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        // A launcher that exits at once with a message, as a refused job does.
        QTemporaryDir bin;
        const QString fake = bin.filePath(QStringLiteral("trainscope-cli"));
        QFile script(fake);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(
            "#!/bin/sh\necho 'error: --master-port 70000: must be a TCP port' >&2\nexit 2\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        window.controller()->setCliPath(fake);
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        window.controller()->start(jobConfig(4), 2);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 30000);
        const auto outcome = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(outcome.summary.status, RunStatus::Failed);
        QCOMPARE(QString::fromStdString(outcome.summary.error),
                 QStringLiteral("--master-port 70000: must be a TCP port"));
        QVERIFY(outcome.runDir.isEmpty()); // no ghost run left in the Runs view
        QVERIFY(!QDir(fx.runsDir()).exists() || QDir(fx.runsDir()).isEmpty());
    }

    void theProcessesFieldIsRememberedAndSetFromTheCommandLine() {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("settings.ini")));
        {
            testing::GuiFixture fx;
            MainWindow& window = fx.open(machine_);
            window.form()->setProcesses(3);
            rememberExperiment(settings, *window.form());
        }
        QCOMPARE(settings.lastProcesses(), 3);
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        restoreExperiment(settings, *window.form());
        QCOMPARE(window.form()->processes(), 3);

        QString error, help;
        const auto options = parseLaunchOptions(
            {QStringLiteral("trainscope"), QStringLiteral("--processes"), QStringLiteral("2")},
            &error, &help);
        QVERIFY(options);
        QCOMPARE(options->processes, 2);
        QVERIFY(!parseLaunchOptions(
            {QStringLiteral("trainscope"), QStringLiteral("--processes"), QStringLiteral("0")},
            &error, &help));
        QVERIFY2(error.contains(QStringLiteral("--processes '0'")), qPrintable(error));
    }
};

TRAINSCOPE_WIDGET_TEST(test_gui_job, GuiJobTest)
#include "test_gui_job.moc"
