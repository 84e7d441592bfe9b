// Screenshots of every view after a real profiled run, saved for a person to
// look at ($TRAINSCOPE_SCREENSHOT_DIR) and checked to show content.
#include <QDir>
#include <QSet>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "GuiFixture.h"
#include "TestConfigs.h"
#include "TestPaths.h"
#include "TestWeights.h"
#include "WidgetTests.h"
#include "common/SortFilterProxy.h"
#include "common/ThemePalette.h"
#include "form/ExperimentForm.h"
#include "gpu/KernelsView.h"
#include "gpu/OverviewView.h"
#include "live/LiveView.h"
#include "operators/OpTableModel.h"
#include "operators/OperatorsView.h"
#include "roofline/PeaksPanel.h"
#include "roofline/RooflineChart.h"
#include "roofline/RooflineView.h"
#include "runs/RunModels.h"
#include "runs/RunsView.h"
#include "shell/OpenedDocument.h"
#include "studies/ExperimentControls.h"
#include "studies/ExperimentModels.h"
#include "studies/ExperimentsView.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "training/RunController.h"

using namespace ts;
using namespace ts::gui;

namespace {

QString screenshotDir() {
    const QString dir =
        qEnvironmentVariable("TRAINSCOPE_SCREENSHOT_DIR",
                             QDir::temp().filePath(QStringLiteral("trainscope-screenshots")));
    QDir().mkpath(dir);
    return dir;
}

// Distinct colours on a coarse grid: a blank or single-colour window has a handful.
int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

QImage shoot(MainWindow& window, const QString& name) {
    QTest::qWait(300); // queued replots
    const QImage image = window.grab().toImage();
    const QString path = QDir(screenshotDir()).filePath(name + QStringLiteral(".png"));
    image.save(path);
    qInfo("screenshot %s: %d colours", qPrintable(path), distinctColours(image));
    return image;
}

} // namespace

class ScreenshotTest : public QObject {
    Q_OBJECT
private slots:
    void everyViewAfterAProfiledRun() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::probe());
        window.controller()->setWriteCheckpoints(false);
        ExperimentConfig config = testing::tinyConfig();
        config.name = "screenshot-run";
        config.max_steps = 8;
        config.synthetic_samples = 512;
        config.profile.enabled = true;
        config.profile.skip_first = 2;
        config.profile.wait = 0;
        config.profile.warmup = 1;
        config.profile.active = 2;
        config.profile.repeat = 1;
        window.form()->setConfig(config);
        QSignalSpy finished(window.controller(), &RunController::runFinished);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 180000);
        QCOMPARE(finished.at(0).at(0).value<RunOutcome>().summary.status, RunStatus::Completed);

        const QImage live = shoot(window, QStringLiteral("live"));
        QCOMPARE(live.size(), window.size());
        QVERIFY(distinctColours(live) > 40);

        QVERIFY2(window.page<OperatorsView>("operators")->model()->rowCount() > 10,
                 "the profiling window reached the Operators view");
        window.showView(QStringLiteral("operators"));
        QVERIFY(distinctColours(shoot(window, QStringLiteral("operators"))) > 40);

        window.showView(QStringLiteral("timeline"));
        TimelineView* timeline = window.page<TimelineView>("timeline");
        QVERIFY(!timeline->timeline()->layout().rows().empty());
        timeline->setSearchText(QStringLiteral("conv"));
        QVERIFY(timeline->search().count() > 0);
        timeline->nextMatch();
        QVERIFY(timeline->timeline()->selectedEvent() >= 0);
        const int32_t match = timeline->timeline()->selectedEvent();
        QVERIFY(distinctColours(shoot(window, QStringLiteral("timeline-search"))) > 40);
        // Without the search, zoomed to the forward pass around the first convolution.
        timeline->setSearchText(QString());
        int32_t outer = match;
        const Trace& trace = *timeline->timeline()->layout().trace();
        while (trace.events[size_t(outer)].parent >= 0 && trace.events[size_t(outer)].depth > 1)
            outer = trace.events[size_t(outer)].parent;
        timeline->timeline()->zoomToEvent(outer);
        timeline->timeline()->selectEvent(match, false);
        QVERIFY(timeline->detailsHtml().contains(QStringLiteral("conv")));
        QVERIFY(distinctColours(shoot(window, QStringLiteral("timeline"))) > 40);

        window.showView(QStringLiteral("runs"));
        QTRY_VERIFY(!window.page<RunsView>("runs")->isScanning() &&
                    window.page<RunsView>("runs")->runModel()->rowCount() == 1);
        QCOMPARE(window.page<RunsView>("runs")->selectRuns({QString::fromStdString(
                     window.page<RunsView>("runs")->runModel()->rowAt(0).dir)}),
                 1);
        QCOMPARE(window.page<RunsView>("runs")->comparisonModel()->rowCount(), 1);
        QVERIFY(distinctColours(shoot(window, QStringLiteral("runs"))) > 40);

        // Roofline of the profiled steps against this machine's measured peaks (smaller
        // benchmark sizes than the default, to keep the test short).
        window.showView(QStringLiteral("roofline"));
        RooflineView* roofline = window.page<RooflineView>("roofline");
        PeakOptions peak_options;
        peak_options.device = "cpu";
        peak_options.matrix_size = 512;
        peak_options.stream_bytes = int64_t(64) << 20;
        peak_options.repeats = 3;
        roofline->peaksPanel()->setMeasureOptions(peak_options);
        roofline->peaksPanel()->measure();
        QTRY_VERIFY_WITH_TIMEOUT(!roofline->peaksPanel()->isMeasuring(), 180000);
        QVERIFY(roofline->chart()->pointCount() > 3);
        roofline->chart()->setSelectedPoint(0);
        QVERIFY(distinctColours(shoot(window, QStringLiteral("roofline"))) > 40);

        // A real batch-size sweep of the same experiment from the Experiments tab.
        window.showView(QStringLiteral("experiments"));
        ExperimentsView* experiments = window.page<ExperimentsView>("experiments");
        ExperimentRequest request;
        request.values = QStringLiteral("8,16,32,64");
        request.steps = 4;
        request.warmup = 1;
        request.rounds = 2; // the least that gives each point an interval
        experiments->controls()->setRequest(request);
        QSignalSpy swept(experiments->job(), &ExperimentJob::finished);
        QString error;
        QVERIFY2(experiments->start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(swept.count() == 1, 240000);
        QCOMPARE(swept.at(0).at(0).value<ExperimentOutcome>().completed, 4);
        QVERIFY(distinctColours(shoot(window, QStringLiteral("experiments"))) > 40);

        // A pruning study of the same model's briefly trained weights (one global threshold,
        // so the layers end up with different sparsity).
        QTemporaryDir train;
        const std::string weights =
            testing::trainWeights(config, std::filesystem::path(train.path().toStdString()));
        QVERIFY(!weights.empty());
        request.mode = ExperimentMode::Prune;
        request.weights = QString::fromStdString(weights);
        request.prune.amount = 0.5;
        request.prune.global = true;
        request.latencyRuns = 5;
        experiments->controls()->setRequest(request);
        QSignalSpy pruned(experiments->pruneJob(), &PruneJob::finished);
        QVERIFY2(experiments->start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(pruned.count() == 1, 240000);
        QVERIFY2(pruned.at(0).at(0).value<PruneOutcome>().error.isEmpty(),
                 qPrintable(pruned.at(0).at(0).value<PruneOutcome>().error));
        QVERIFY(distinctColours(shoot(window, QStringLiteral("pruning"))) > 40);

        // The form with a problem flagged before Start.
        ExperimentConfig bad = config;
        bad.pin_memory = true;
        window.form()->setConfig(bad);
        QVERIFY(distinctColours(shoot(window, QStringLiteral("form-invalid"))) > 40);
        window.form()->setConfig(config);

        applyTheme(Theme::Dark);
        window.showView(QStringLiteral("live"));
        const QImage dark = shoot(window, QStringLiteral("live-dark"));
        QVERIFY(qGray(dark.pixel(dark.width() / 2, dark.height() / 2)) < 128 ||
                qGray(dark.pixel(10, dark.height() - 10)) < 128);
        applyTheme(Theme::Light);
    }

    // The Overview and Kernels tabs of a Kineto trace with GPU work (a
    // TensorBoard plugin fixture: kernels, NCCL communication, one step).
    void gpuTraceViews() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::probe());
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(QString::fromUtf8(TRAINSCOPE_SOURCE_DIR) +
                        QStringLiteral("/tests/data/tb_plugin/test_distributed_nccl_0.json"));
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, 60000);
        QVERIFY(shown.at(0).at(0).value<OpenedDocument>().ok());
        QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("overview"));
        QVERIFY(!window.page<OverviewView>("overview")->content().empty());
        QVERIFY(distinctColours(shoot(window, QStringLiteral("overview"))) > 40);

        window.showView(QStringLiteral("kernels"));
        QVERIFY(window.page<KernelsView>("kernels")->proxy()->rowCount() > 0);
        QVERIFY(distinctColours(shoot(window, QStringLiteral("kernels"))) > 40);
        window.page<KernelsView>("kernels")->setGroupByOperator(true);
        QVERIFY(distinctColours(shoot(window, QStringLiteral("kernels-by-operator"))) > 40);
    }
};

TRAINSCOPE_WIDGET_TEST(test_screenshots, ScreenshotTest)
#include "test_screenshots.moc"
