// Live data path: the LiveBuffer hand-over, progress/ETA, and the Live view
// fed with synthetic records (one replot per update, follow/pan behaviour).
#include <fstream>
#include <thread>

#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QtTest>

#include "LegendChecks.h"
#include "SyntheticRecords.h"
#include "WidgetTests.h"
#include "live/LiveCharts.h"
#include "live/LiveView.h"
#include "live/RanksChart.h"
#include "report/RunDirectory.h"
#include "training/LiveBuffer.h"
#include "training/ProgressEstimator.h"

using namespace ts;
using namespace ts::gui;

namespace {

RunInfo info(int epochs, int64_t steps_per_epoch) {
    RunInfo i;
    i.config.epochs = epochs;
    i.config.val_every = 1;
    i.steps_per_epoch = steps_per_epoch;
    i.val_samples = 100;
    return i;
}

// The view on screen, as the user sees it (charts lay out only when shown).
bool showOnScreen(LiveView& view) {
    view.resize(1200, 800);
    view.show();
    return QTest::qWaitForWindowExposed(&view);
}

// The first update of a run: its start and `steps` steps.
LiveUpdate firstUpdate(int epochs, int64_t steps_per_epoch, int64_t steps) {
    LiveUpdate update;
    update.started = info(epochs, steps_per_epoch);
    update.steps = testing::syntheticSteps(0, steps);
    return update;
}

} // namespace

class LiveTest : public QObject {
    Q_OBJECT
private slots:
    void bufferHandsOverEverythingOnce() {
        LiveBuffer buffer;
        QVERIFY(buffer.take().empty());
        buffer.onRunStarted(info(1, 10));
        for (const StepRecord& s : testing::syntheticSteps(0, 3))
            buffer.onStep(s);
        buffer.onMessage(LogLevel::Warning, "slow loader");
        ProfileCapture capture;
        capture.trace.source = "test";
        buffer.onProfile(capture);
        LiveUpdate first = buffer.take();
        QVERIFY(first.started.has_value());
        QCOMPARE(first.steps.size(), size_t(3));
        QCOMPARE(first.messages.size(), size_t(1));
        QCOMPARE(first.profiles.size(), size_t(1));
        QCOMPARE(first.profiles[0]->trace.source, std::string("test"));
        QVERIFY(buffer.take().empty());
        buffer.onRunFinished(RunSummary());
        QVERIFY(buffer.take().finished.has_value());
    }

    void bufferIsSafeAcrossThreads() {
        LiveBuffer buffer;
        constexpr int kSteps = 20000;
        std::thread producer([&] {
            for (int i = 0; i < kSteps; ++i)
                buffer.onStep(testing::syntheticStep(i));
        });
        size_t received = 0;
        int64_t expected = 0;
        bool ordered = true;
        while (received < size_t(kSteps)) {
            for (const StepRecord& s : buffer.take().steps)
                ordered = ordered && s.global_step == expected++;
            received = size_t(expected);
        }
        producer.join();
        QVERIFY(ordered);
        QCOMPARE(received, size_t(kSteps));
    }

    void progressAndEta() {
        ProgressEstimator progress;
        LiveUpdate update;
        update.started = info(2, 50);
        update.steps = testing::syntheticSteps(0, 25); // 0.07 s apart
        progress.add(update);
        RunProgress p = progress.progress();
        QCOMPARE(p.total_steps, int64_t(100));
        QCOMPARE(p.done_steps, int64_t(25));
        QCOMPARE(p.fraction(), 0.25);
        QVERIFY(qAbs(p.eta_s - 75 * 0.07) < 1e-6); // no epoch finished: no validation estimate yet
        LiveUpdate more;
        more.steps = testing::syntheticSteps(25, 25);
        more.epochs = {testing::syntheticEpoch(0)};
        progress.add(more);
        p = progress.progress();
        QVERIFY(qAbs(p.eta_s - (50 * 0.07 + 0.6)) < 1e-6); // + one more validation pass
        QCOMPARE(p.epoch, 0);
    }

    void etaUnknownAtTheStart() {
        ProgressEstimator progress;
        LiveUpdate update;
        update.started = info(1, 10);
        update.steps = testing::syntheticSteps(0, 1);
        progress.add(update);
        QVERIFY(progress.progress().eta_s < 0);
    }

    void viewPlotsEveryChartOncePerUpdate() {
        LiveView view;
        QVERIFY(showOnScreen(view));
        const int replots = view.replotCount();
        view.append(firstUpdate(2, 50, 40));
        QCOMPARE(view.replotCount(), replots + 1);
        LiveUpdate second;
        second.steps = testing::syntheticSteps(40, 20);
        second.epochs = {testing::syntheticEpoch(0)};
        view.append(second);
        QCOMPARE(view.replotCount(), replots + 2);
        QCOMPARE(view.history().steps.size(), size_t(60));
        for (HistoryChart* chart : view.charts())
            if (chart != view.ranksChart()) QVERIFY(chart->plottableCount() > 0);
        // One process: the ranks' chart stays empty and hidden.
        QCOMPARE(view.ranksChart()->plottableCount(), 0);
        QVERIFY(view.ranksChart()->isHidden());
        auto* throughput = view.charts()[0];
        QCOMPARE(throughput->graph(0)->dataCount(), 60);
        QCOMPARE(throughput->graph(2)->dataCount(), 2); // the two profiled steps
        auto* phases = view.charts()[1];
        // Stacked: the top layer is the whole step time.
        QCOMPARE(phases->graph(5)->data()->at(0)->value, testing::syntheticStep(0).step_ms);
        QCOMPARE(view.frameMeter().count(), 2);
        QVERIFY(view.frameMeter().max() > 0.0);
    }

    // A job's ranks: a step-time line per rank (and its allreduce wait), in
    // rank order whichever rank reported first; one replot per tick still.
    void ranksOfAJobGetALineEachInRankOrder() {
        LiveView view;
        QVERIFY(showOnScreen(view));
        LiveUpdate first = firstUpdate(2, 50, 4);
        for (const StepRecord& s : testing::syntheticSteps(0, 3))
            first.rank_steps.emplace_back(1, s);
        const int replots = view.replotCount();
        view.append(first);
        QCOMPARE(view.replotCount(), replots + 1);
        QVERIFY(view.ranksChart()->isVisible());
        QCOMPARE(view.ranksChart()->rankCount(), 2); // rank 0 has a line before its steps
        QCOMPARE(view.ranksChart()->graph(0)->name(), QStringLiteral("rank 0 step"));
        QCOMPARE(view.ranksChart()->graph(0)->dataCount(), 0);
        QCOMPARE(view.ranksChart()->graph(2)->dataCount(), 3); // rank 1 step
        LiveUpdate second;
        for (const StepRecord& s : testing::syntheticSteps(0, 4))
            second.rank_steps.emplace_back(0, s);
        view.append(second);
        QCOMPARE(view.ranksChart()->graph(0)->dataCount(), 4);
        QCOMPARE(view.ranksChart()->graph(0)->data()->at(3)->value,
                 testing::syntheticStep(3).step_ms);
        QCOMPARE(view.ranksChart()->graph(2)->dataCount(), 3);
        view.clear();
        QVERIFY(view.ranksChart()->isHidden());
        QCOMPARE(view.ranksChart()->rankCount(), 0);
    }

    void followingShowsTheNewestStepsUntilTheUserPans() {
        LiveView view;
        QVERIFY(showOnScreen(view));
        view.append(firstUpdate(100, 50, 1500));
        HistoryChart* chart = view.charts()[0];
        QVERIFY(view.following());
        QVERIFY(chart->xAxis->range().upper >= 1499);
        QVERIFY(chart->xAxis->range().lower >= 400); // a window of the newest 1000 steps

        // A wheel zoom on one chart stops following on all of them...
        QWheelEvent wheel(QPointF(400, 100), chart->mapToGlobal(QPointF(400, 100)), QPoint(),
                          QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(chart, &wheel);
        QVERIFY(!view.following());
        const QCPRange zoomed = chart->xAxis->range();
        QVERIFY(zoomed.size() < 1000);
        // ...the other step charts follow the zoom...
        QCOMPARE(view.charts()[2]->xAxis->range().lower, zoomed.lower);
        // ...and new data no longer moves the view.
        LiveUpdate more;
        more.steps = testing::syntheticSteps(1500, 100);
        view.append(more);
        // The tick's time is reported, not asserted (timings belong in bench/); the
        // meter must have recorded it.
        qInfo("tick adding 100 steps to a 1,500-step history: %.2f ms", view.frameMeter().last());
        QVERIFY(view.frameMeter().last() > 0.0);
        QCOMPARE(chart->xAxis->range().lower, zoomed.lower);
        view.setFollowing(true);
        QVERIFY(chart->xAxis->range().upper >= 1599);
    }

    void memoryChartPlotsRecordedPageFaultsOnTheRightAxis() {
        LiveView view;
        QVERIFY(showOnScreen(view));
        LiveUpdate update = firstUpdate(1, 50, 10);
        update.steps[5].page_faults = -1; // a run directory from before the column existed
        view.append(update);
        HistoryChart* memory = view.charts()[2];
        QCPGraph* faults = nullptr;
        for (int i = 0; i < memory->graphCount(); ++i)
            if (memory->graph(i)->name() == "page faults") faults = memory->graph(i);
        QVERIFY(faults);
        QCOMPARE(faults->valueAxis(), memory->yAxis2);
        QCOMPARE(faults->dataCount(), 9); // step 5 is not plotted
        QCOMPARE(faults->data()->at(0)->value, 30000.0);
        QCOMPARE(faults->data()->at(1)->value, 40.0);
        QVERIFY(memory->yAxis2->visible());
        QVERIFY(memory->yAxis2->range().upper >= 30000.0);
    }

    void memoryByCategoryIsStackedUnderTheStepPeakWithItsBytesOnHover() {
        LiveView view;
        QVERIFY(showOnScreen(view));
        MemoryCategoryChart* chart = view.memoryCategoryChart();
        QVERIFY(chart && chart->isVisible());
        const auto& layers = chart->layers();
        QCOMPARE(layers.size(), std::size(kMemoryCategoryFields));
        LiveUpdate update = firstUpdate(1, 50, 10);
        update.steps[3].memory = MemoryByCategory(); // a step from a run without categories
        update.steps[4].memory.activation_bytes = 50 << 20;
        update.steps[5].device_peak_bytes = 200 << 20; // a CUDA step: the allocator's peak
        view.append(update);
        for (size_t c = 0; c < layers.size(); ++c) {
            QCOMPARE(layers[c]->name(), QString::fromLatin1(kMemoryCategoryFields[c].name));
            QVERIFY(chart->legend->hasItemWithPlottable(layers[c]));
            QCOMPARE(layers[c]->dataCount(), 9); // step 3 is not plotted
            if (c > 0) QCOMPARE(layers[c]->channelFillGraph(), layers[c - 1]);
        }
        // Stacked: each layer is the sum up to its category, the top the whole.
        QCOMPARE(layers[0]->data()->at(0)->value, 20.0);      // parameters, MiB
        QCOMPARE(layers[1]->data()->at(0)->value, 60.0);      // + optimizer state
        QCOMPARE(layers.back()->data()->at(0)->value, 120.0); // + ... + temporary
        QCOMPARE(layers.back()->data()->at(3)->key, 4.0);
        QCOMPARE(layers.back()->data()->at(3)->value, 135.0); // step 4: more activations
        QCOMPARE(chart->peak()->data()->at(0)->value, 120.0); // the CPU tensor peak
        QCOMPARE(chart->peak()->data()->at(4)->value, 200.0); // the device's on CUDA
        const QString text = chart->hoverText(4);
        QVERIFY2(text.contains("stacked 135 MiB, step peak 120 MiB"), qPrintable(text));
        QVERIFY2(text.contains("not all alive at once"), qPrintable(text));
        for (const char* line :
             {"Parameter: 20.0 MiB", "Optimizer state: 40.0 MiB", "Input: 1.00 MiB",
              "Gradient: 20.0 MiB", "Activation: 50.0 MiB", "Temporary/Unknown: 4.00 MiB"})
            QVERIFY2(text.contains(line), qPrintable(text));
        QVERIFY(!chart->hoverText(0).contains("not all alive"));
        QVERIFY(chart->hoverText(3).isEmpty());
    }

    // Each chart's legend sits in a row under its title: at any width the
    // charts get, every entry shows whole (fewer columns, more rows).
    void everyLegendShowsItsEntriesWholeAtAnyWidth() {
        LiveView view;
        RunRecord record;
        record.info = info(1, 50);
        record.steps = testing::syntheticSteps(0, 50);
        record.epochs = {testing::syntheticEpoch(0)};
        view.showRun(record);
        QVERIFY(showOnScreen(view));
        for (const int width : {1800, 900, 640, 500}) { // two charts side by side
            view.resize(width, 900);
            QCoreApplication::processEvents(); // the grid lays the charts out
            for (HistoryChart* chart : view.charts()) {
                if (chart->isHidden()) continue; // the ranks' chart of a one-process run
                chart->replot();
                int entries = 0;
                const QString clipped = testing::clippedLegendEntries(*chart, &entries);
                QVERIFY2(clipped.isEmpty(), qPrintable(QStringLiteral("%1, %2 px wide: %3")
                                                           .arg(chart->titleElement()->text())
                                                           .arg(chart->width())
                                                           .arg(clipped)));
                QVERIFY(entries > 0);
            }
        }
    }

    void showsAFinishedRunAndClears() {
        LiveView view;
        RunRecord record;
        record.info = info(1, 50);
        record.info.config.name = "loaded";
        record.steps = testing::syntheticSteps(0, 50);
        record.epochs = {testing::syntheticEpoch(0)};
        record.summary.status = RunStatus::Completed;
        view.showRun(record);
        QCOMPARE(view.history().steps.size(), size_t(50));
        QCOMPARE(view.charts()[4]->plottableCount(), 2);
        view.clear();
        QCOMPARE(view.history().steps.size(), size_t(0));
        QCOMPARE(view.charts()[0]->graph(0)->dataCount(), 0);
    }

    // A run opened from disk shows what the engine said while it trained,
    // e.g. that it was interrupted and continued in its directory.
    void showsTheMessagesAFinishedRunRecorded() {
        const QTemporaryDir dir;
        std::ofstream(dir.filePath(QStringLiteral("run.json")).toStdString())
            << R"({"messages": ["continued in this directory at epoch 3, step 8",)"
            << R"( "warning: the loss is NaN"]})";
        LiveView view;
        RunRecord record;
        record.dir = dir.path().toStdString();
        record.info = info(1, 10);
        record.steps = testing::syntheticSteps(0, 10);
        record.summary.status = RunStatus::Completed;
        view.showRun(record);
        const auto* log = view.findChild<QPlainTextEdit*>();
        QVERIFY(log);
        QVERIFY(log->toPlainText().contains(
            QStringLiteral("continued in this directory at epoch 3, step 8")));
        QVERIFY(log->toPlainText().contains(QStringLiteral("the loss is NaN")));
    }
};

TRAINSCOPE_WIDGET_TEST(test_live, LiveTest)
#include "test_live.moc"
