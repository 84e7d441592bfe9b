// A real (tiny) training run driven through the GUI: Start, live updates
// arrive once per tick, Stop keeps the partial run, the run is saved, listed
// and can be opened again. Also the command-line automation.
#include <QDir>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QMimeData>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include "GuiFixture.h"
#include "SyntheticTrace.h"
#include "TestConfigs.h"
#include "WidgetTests.h"
#include "form/ExperimentForm.h"
#include "form/RunPanel.h"
#include "gpu/OverviewView.h"
#include "live/LiveView.h"
#include "operators/OpTableModel.h"
#include "operators/OperatorsView.h"
#include "report/RunDirectory.h"
#include "runs/RunModels.h"
#include "runs/RunsView.h"
#include "shell/Application.h"
#include "shell/DocumentLoader.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "trace/ChromeTraceWriter.h"
#include "training/RunController.h"

using namespace ts;
using namespace ts::gui;

namespace {

constexpr int kRunTimeoutMs = 180000;

// Largest gap between event-loop iterations while the run trains: the
// "window stays responsive" figure (the training threads compete for the
// same cores, so this is reported; the GUI's own work per tick is asserted).
class LoopGapMeter : public QObject {
public:
    LoopGapMeter() {
        timer_.setInterval(5);
        connect(&timer_, &QTimer::timeout, this, [this] {
            if (clock_.isValid()) meter.record(double(clock_.nsecsElapsed()) / 1e6);
            clock_.start();
        });
        timer_.start();
    }
    FrameMeter meter;

private:
    QTimer timer_;
    QElapsedTimer clock_;
};

bool listed(const RunsView& runs, const QString& dir) {
    for (const RunRow& row : runs.runModel()->rows())
        if (QDir(QString::fromStdString(row.dir)).canonicalPath() == QDir(dir).canonicalPath())
            return true;
    return false;
}

} // namespace

class GuiRunTest : public QObject {
    Q_OBJECT
    Machine machine_;

private slots:
    void initTestCase() { machine_ = Machine::probe(); }

    void completesATinyRun() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.controller()->setWriteCheckpoints(false);
        window.form()->setConfig(testing::tinyConfig());
        QVERIFY(window.runPanel()->startButton()->isEnabled());
        QSignalSpy updates(window.controller(), &RunController::updated);
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        LoopGapMeter gaps;
        int replots_at_start = -1;
        connect(window.controller(), &RunController::runStarted, this,
                [&] { replots_at_start = window.page<LiveView>("live")->replotCount(); });
        QTest::mouseClick(window.runPanel()->startButton(), Qt::LeftButton);
        QVERIFY(window.controller()->isRunning());
        QVERIFY(!window.form()->fieldWidget("batch_size")->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kRunTimeoutMs);

        const auto outcome = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(outcome.summary.status, RunStatus::Completed);
        QCOMPARE(outcome.summary.steps_completed, int64_t(6));
        QVERIFY(updates.count() >= 1);
        QCOMPARE(window.page<LiveView>("live")->history().steps.size(), size_t(6));
        // One replot per tick that brought data, however many steps it carried.
        QCOMPARE(window.page<LiveView>("live")->replotCount() - replots_at_start, updates.count());
        QVERIFY(window.form()->fieldWidget("batch_size")->isEnabled());

        const RunRecord saved = loadRun(outcome.runDir.toStdString());
        QCOMPARE(saved.summary.status, RunStatus::Completed);
        QCOMPARE(saved.steps.size(), size_t(6));
        QVERIFY(outcome.runDir.startsWith(fx.runsDir()));
        QVERIFY(listed(*window.page<RunsView>("runs"), outcome.runDir));

        // The Runs view's report export writes what `trainscope-cli compare --out` writes.
        QCOMPARE(window.page<RunsView>("runs")->selectRuns({outcome.runDir}), 1);
        QTemporaryDir report_dir;
        QString error;
        QVERIFY2(window.page<RunsView>("runs")->exportReport(report_dir.path(), &error),
                 qPrintable(error));
        QFile report(QDir(report_dir.path()).filePath(QStringLiteral("report.md")));
        QVERIFY(report.open(QIODevice::ReadOnly));
        QVERIFY(report.readAll().contains(saved.info.config.name.c_str()));
        QVERIFY(QFile::exists(QDir(report_dir.path()).filePath(QStringLiteral("comparison.csv"))));

        const FrameMeter& ticks = window.page<LiveView>("live")->frameMeter();
        qInfo("GUI work per tick: median %.2f ms, max %.2f ms over %d ticks; event-loop gaps: "
              "median %.1f ms, p95 %.1f ms, max %.1f ms",
              ticks.median(), ticks.max(), ticks.count(), gaps.meter.median(), gaps.meter.p95(),
              gaps.meter.max());
        // Timings are reported above, not asserted (they belong in bench/): every tick
        // that brought data was measured.
        QVERIFY(ticks.count() >= 1);
    }

    void stopKeepsThePartialRun() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.controller()->setWriteCheckpoints(false);
        ExperimentConfig config = testing::tinyConfig();
        config.synthetic_samples = 16 * 400;
        config.max_steps = 400;
        window.form()->setConfig(config);
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        QTest::mouseClick(window.runPanel()->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.page<LiveView>("live")->history().steps.size() >= 2,
                                 kRunTimeoutMs);
        QElapsedTimer stopping;
        stopping.start();
        QTest::mouseClick(window.runPanel()->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
        qInfo("stopped %.0f ms after Stop", double(stopping.elapsed()));

        const auto outcome = finished.at(0).at(0).value<RunOutcome>();
        QCOMPARE(outcome.summary.status, RunStatus::Cancelled);
        QVERIFY(outcome.summary.steps_completed >= 2);
        QVERIFY(outcome.summary.steps_completed < 400);
        const RunRecord saved = loadRun(outcome.runDir.toStdString());
        QCOMPARE(saved.summary.status, RunStatus::Cancelled);
        QCOMPARE(int64_t(saved.steps.size()), outcome.summary.steps_completed);
    }

    // Stop at any moment of a real run: while its model and data load, between
    // steps, while a checkpoint (every 2 steps) or a profile window (every
    // step) is written. The worker is always joined, the run ends once, and
    // what it kept reads back with no temporary file beside it.
    void stopAtAnyMomentJoinsTheWorkerAndLeavesValidRecords() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.controller()->setWriteCheckpoints(true);
        ExperimentConfig config = testing::tinyConfig();
        config.synthetic_samples = 32; // 2 steps per epoch
        config.epochs = 40;
        config.checkpoint_every = 1;
        config.val_max_steps = 1;
        config.profile.enabled = true;
        config.profile.warmup = 0;
        config.profile.active = 1;
        config.profile.repeat = 0;
        window.form()->setConfig(config);
        for (const int delay_ms : {0, 20, 80, 200, 450, 900, 1600}) {
            const QByteArray moment = "Stop " + QByteArray::number(delay_ms) + " ms after Start";
            QSignalSpy finished(window.controller(), &RunController::runFinished);
            QTest::mouseClick(window.runPanel()->startButton(), Qt::LeftButton);
            QVERIFY2(window.controller()->isRunning(), moment.constData());
            if (delay_ms > 0) QTest::qWait(delay_ms);
            QTest::mouseClick(window.runPanel()->stopButton(), Qt::LeftButton);
            QTRY_VERIFY2_WITH_TIMEOUT(finished.count() == 1, moment.constData(), 60000);
            QVERIFY2(!window.controller()->isRunning(), moment.constData());
            const auto outcome = finished.at(0).at(0).value<RunOutcome>();
            qInfo("%s: %s, %lld steps", moment.constData(), toString(outcome.summary.status),
                  static_cast<long long>(outcome.summary.steps_completed));
            if (outcome.runDir.isEmpty()) continue; // stopped before training: nothing kept
            for (const QString& name : QDir(outcome.runDir).entryList(QDir::Files))
                QVERIFY2(!name.contains(QStringLiteral(".tmp-")), moment.constData());
            const RunRecord saved = loadRun(outcome.runDir.toStdString());
            QVERIFY2(saved.summary.status == RunStatus::Cancelled ||
                         saved.summary.status == RunStatus::Completed,
                     moment.constData());
            QCOMPARE(int64_t(saved.steps.size()), outcome.summary.steps_completed);
        }
    }

    void invalidConfigNeverStarts() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        ExperimentConfig config = testing::tinyConfig();
        config.pin_memory = true; // CPU: rejected
        window.form()->setConfig(config);
        QVERIFY(!window.runPanel()->startButton()->isEnabled());
        QSignalSpy failed(window.controller(), &RunController::startFailed);
        window.controller()->start(config);
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("pin_memory")));
        QVERIFY(!window.controller()->isRunning());
        QVERIFY(!QDir(fx.runsDir()).exists() || QDir(fx.runsDir()).isEmpty());
    }

    void opensASavedRun() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.controller()->setWriteCheckpoints(false);
        window.form()->setConfig(testing::tinyConfig());
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kRunTimeoutMs);
        const QString dir = finished.at(0).at(0).value<RunOutcome>().runDir;

        window.page<LiveView>("live")->clear();
        QSignalSpy shown(&window, &MainWindow::documentShown);
        QMimeData mime; // dragged onto the window and dropped, as from a file manager
        mime.setUrls({QUrl::fromLocalFile(dir)});
        QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, 60000);
        QVERIFY(shown.at(0).at(0).value<OpenedDocument>().ok());
        QCOMPARE(window.page<LiveView>("live")->history().steps.size(), size_t(6));
        // An opened run shows its Overview first: its training phases per step.
        QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("overview"));
        QCOMPARE(window.page<OverviewView>("overview")->content().steps.size(), size_t(6));
        QVERIFY(fx.settings.recentFiles().first().endsWith(QDir(dir).dirName()));

        window.openPath(fx.dir.filePath(QStringLiteral("nowhere")));
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 2, 60000);
        QVERIFY(QString::fromStdString(shown.at(1).at(0).value<OpenedDocument>().error)
                    .contains(QStringLiteral("no such file or directory")));
    }

    void opensAChromeTrace() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        const QString path = fx.dir.filePath(QStringLiteral("tiny.trace.json"));
        writeChromeTraceFile(testing::makeSyntheticTrace({5000, 2, 5}), path.toStdString());
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(path);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, 60000);
        const auto doc = shown.at(0).at(0).value<OpenedDocument>();
        QVERIFY2(doc.ok(), doc.error.c_str());
        QVERIFY(!doc.run);
        QVERIFY(doc.trace->events.size() >= 4000);
        QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("overview"));
        QVERIFY(!window.page<TimelineView>("timeline")->timeline()->layout().rows().empty());
        QVERIFY(window.page<OperatorsView>("operators")->model()->rowCount() > 5);

        const QString broken = fx.dir.filePath(QStringLiteral("broken.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"traceEvents\": [ {");
        file.close();
        window.openPath(broken);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 2, 60000);
        QVERIFY(QString::fromStdString(shown.at(1).at(0).value<OpenedDocument>().error)
                    .contains(QStringLiteral("broken.json")));
    }

    void commandLineRunsAndSavesAScreenshot() {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("cli.png"));
        const int code = runApplication({"trainscope",
                                         "--settings",
                                         dir.filePath("s.ini"),
                                         "--runs-dir",
                                         dir.filePath("runs"),
                                         "--preset",
                                         "synthetic-smoke",
                                         "--set",
                                         "max_steps=3",
                                         "--set",
                                         "val_max_steps=1",
                                         "--set",
                                         "threads=2",
                                         "--no-checkpoints",
                                         "--run",
                                         "--view",
                                         "live",
                                         "--screenshot",
                                         png,
                                         "--size",
                                         "1200x800",
                                         "--quit-when-done"});
        QCOMPARE(code, 0);
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1200, 800));
        QCOMPARE(QDir(dir.filePath("runs")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 1);
        QCOMPARE(runApplication({"trainscope", "--settings", dir.filePath("s.ini"), "--preset",
                                 "no-such", "--quit-when-done"}),
                 2);
    }
};

TRAINSCOPE_WIDGET_TEST(test_gui_run, GuiRunTest)
#include "test_gui_run.moc"
