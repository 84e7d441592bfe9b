// The Experiments tab: its item models under QAbstractItemModelTester, a
// sweep, a ladder and a prune directory written by core shown as table and
// charts, a real two-point sweep run through the view, Stop of a running
// sweep, and a real pruning study of freshly trained weights.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "GuiFixture.h"
#include "ModelCells.h"
#include "TestConfigs.h"
#include "TestWeights.h"
#include "WidgetTests.h"
#include "analysis/NcuCsv.h"
#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "experiments/LadderReport.h"
#include "experiments/PruneStudy.h"
#include "experiments/StudyTables.h"
#include "experiments/SweepReport.h"
#include "form/ExperimentForm.h"
#include "studies/ExperimentControls.h"
#include "studies/ExperimentModels.h"
#include "studies/ExperimentsView.h"
#include "studies/LadderChart.h"
#include "studies/PointLiveChart.h"
#include "studies/PruneChart.h"
#include "studies/PruneLayerModel.h"
#include "studies/SweepCharts.h"
#include "studies/SweepPanel.h"
#include "training/RunController.h"

using namespace ts;
using namespace ts::gui;
using testing::column;

namespace {

constexpr int kSweepTimeoutMs = 240000;
constexpr int64_t kMiB = 1024 * 1024;

PointResult completed(double images_per_sec, int64_t memory_bytes) {
    PointResult r;
    r.outcome = PointOutcome::Completed;
    r.summary.status = RunStatus::Completed;
    r.summary.steps_completed = 10;
    r.summary.median_images_per_sec = images_per_sec;
    r.summary.median_step_ms = 1000.0 * 32 / images_per_sec;
    r.summary.median_phases.data_ms = 1.5;
    r.summary.final_val_accuracy = 0.5;
    r.memory_bytes = memory_bytes;
    return r;
}

SweepRow sweepRow(size_t index, const std::string& batch, PointResult result,
                  int64_t predicted = 0) {
    SweepRow row;
    row.point.index = index;
    row.point.values = {{"batch_size", batch}};
    row.point.dir_name = "point_" + std::to_string(index) + "_batch_size=" + batch;
    row.result = std::move(result);
    row.predicted_bytes = predicted;
    return row;
}

// Four points: three measured (text order of 9 < 100 < 64 differs from numeric), one skipped
// by the memory guard.
SweepResult constructedSweep() {
    SweepResult r;
    r.spec.base = testing::tinyConfig();
    r.spec.base.name = "constructed-sweep";
    r.spec.axes.push_back({"batch_size", {"16", "32", "64", "128"}});
    PointResult skipped;
    skipped.outcome = PointOutcome::Skipped;
    skipped.message = "predicted to need 900 MiB of 800 MiB available";
    r.rows = {
        sweepRow(0, "16", completed(100, 120 * kMiB)), sweepRow(1, "32", completed(9, 200 * kMiB)),
        sweepRow(2, "64", completed(64, 380 * kMiB)), sweepRow(3, "128", skipped, 900 * kMiB)};
    return r;
}

RungRow rung(const std::string& id, double ips, bool kept, double speedup) {
    RungRow r;
    r.id = id;
    r.title = id;
    r.change = id == "baseline" ? "" : id + "=on";
    r.ran = ips > 0;
    if (r.ran) {
        r.result = completed(ips, 300 * kMiB);
        r.kept = kept;
        r.speedup = speedup;
        r.decision = kept ? "kept" : "dropped: not faster";
    } else {
        r.result.outcome = PointOutcome::Skipped;
        r.result.message = r.skip_reason = "only on CUDA";
        r.decision = "skipped";
    }
    return r;
}

LadderResult constructedLadder() {
    LadderResult r;
    r.spec.base = testing::tinyConfig();
    r.spec.base.name = "constructed-ladder";
    r.rows = {rung("baseline", 100, true, 1.0), rung("workers", 140, true, 1.4),
              rung("pin-memory", 0, false, 0), rung("channels-last", 120, false, 1.2)};
    r.baseline_images_per_sec = 100;
    r.best_images_per_sec = 140;
    return r;
}

LayerSparsity layer(const std::string& name, int64_t params, int64_t zeros_after) {
    LayerSparsity l;
    l.name = name;
    l.shape = {params, 1, 1, 1};
    l.params = params;
    l.zeros_before = 0;
    l.zeros_after = zeros_after;
    l.channels = params;
    l.channels_zeroed = 0;
    return l;
}

// Three layers whose parameter counts sort differently as text (9 < 100 < 64).
PruneStudyResult constructedPrune() {
    PruneStudyResult r;
    r.prune.amount = 0.5;
    r.model = "resnet18";
    r.device = "cpu";
    r.weights = "train/final.pt";
    r.layers = {layer("conv1.weight", 100, 50), layer("layer1.0.conv1.weight", 9, 4),
                layer("fc.weight", 64, 32)};
    r.before.accuracy = 0.625;
    r.after.accuracy = 0.5;
    r.before.samples = r.after.samples = 64;
    r.latency_batch = 16;
    r.latency_runs = 5;
    r.latency_before_ms = 12.5;
    r.latency_after_ms = 12.75;
    r.latency_before_spread_ms = 0.5;
    r.latency_after_spread_ms = 0.25;
    r.pruned_weights = "pruned.pt";
    r.verdict = "Sparsity did not make inference faster on cpu: dense kernels.";
    return r;
}

} // namespace

class ExperimentsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { machine_ = Machine::probe(); }

    void sweepModelUnderModelTester() {
        SweepTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(constructedSweep().rows);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(sweepTableSpec(constructedSweep().rows).columns.size()));
        QCOMPARE(model.index(0, model.column("batch_size")).data().toString(),
                 QStringLiteral("16"));
        QCOMPARE(model.index(3, model.column(sweep_column::kStatus)).data().toString(),
                 QStringLiteral("skipped"));
        QVERIFY(
            !model.index(3, model.column(sweep_column::kImagesPerSec)).data(SortRole).isValid());
        QCOMPARE(model.index(3, model.column(sweep_column::kPredicted)).data(SortRole).toLongLong(),
                 900 * kMiB);
        SortFilterProxy proxy;
        QAbstractItemModelTester proxy_tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.sort(model.column(sweep_column::kImagesPerSec),
                   Qt::AscendingOrder); // 9 < 64 < 100, then none
        QCOMPARE(column(proxy, model.column("batch_size")), (QStringList{"32", "64", "16", "128"}));
        model.appendRows({sweepRow(4, "256", completed(50, 10 * kMiB))});
        QCOMPARE(proxy.rowCount(), 5);
        model.clear();
        QCOMPARE(proxy.rowCount(), 0);
    }

    void ladderModelUnderModelTester() {
        LadderTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(constructedLadder().rows);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.index(1, model.column(ladder_column::kKept)).data().toString(),
                 QStringLiteral("yes"));
        QCOMPARE(model.index(1, model.column(ladder_column::kSpeedup)).data().toString(),
                 QStringLiteral("1.40x"));
        QCOMPARE(model.index(2, model.column(ladder_column::kDecision)).data().toString(),
                 QStringLiteral("only on CUDA"));
        QVERIFY(
            !model.index(2, model.column(ladder_column::kImagesPerSec)).data(SortRole).isValid());
        SortFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(model.column(ladder_column::kImagesPerSec), Qt::AscendingOrder);
        QCOMPARE(column(proxy, model.column(ladder_column::kRung)),
                 (QStringList{"baseline", "channels-last", "workers", "pin-memory"}));
    }

    void showsASweepDirectoryWrittenByCore() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.showView(QStringLiteral("experiments"));
        QTemporaryDir out;
        writeSweepReport(constructedSweep(), out.path().toStdString());
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        QString error;
        QVERIFY2(view->openDirectory(out.path(), &error), qPrintable(error));
        QVERIFY(!view->showsLadder());
        QCOMPARE(view->sweepModel()->rowCount(), 4);
        QCOMPARE(view->table()->model()->rowCount(), 4);
        QCOMPARE(view->sweepModel()->rowAt(1).result.summary.median_images_per_sec, 9.0);
        SweepCharts* charts = view->sweepCharts();
        QCOMPARE(charts->categories(), (QStringList{"16", "32", "64", "128"}));
        QCOMPARE(int(charts->throughputLines().size()), 1);
        QCPGraph* ips = charts->throughputLines().front();
        QCOMPARE(ips->dataCount(), 4);
        QCOMPARE(ips->data()->at(2)->value, 64.0);
        QVERIFY(std::isnan(ips->data()->at(3)->value)); // skipped: no throughput
        QCOMPARE(charts->memoryLines().front()->data()->at(1)->value, 200.0);
        QVERIFY(charts->predictedMarkers() != nullptr);
        QCOMPARE(charts->predictedMarkers()->data()->at(0)->value, 900.0);
        const QString png = out.filePath(QStringLiteral("charts.png"));
        QVERIFY(view->exportPng(png, &error));
        QVERIFY(!QImage(png).isNull());

        // A directory without a report is refused with a message naming it.
        QTemporaryDir empty;
        QVERIFY(!view->openDirectory(empty.path(), &error));
        QVERIFY(error.contains(QStringLiteral("sweep.csv")));
    }

    // A sweep over processes shows its speedup against ideal scaling where a
    // sweep over a config key shows memory (jobs have no memory figure).
    void showsTheScalingOfASweepOverProcesses() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.showView(QStringLiteral("experiments"));
        SweepResult r;
        r.spec.base = testing::tinyConfig();
        r.spec.base.name = "processes-sweep";
        r.spec.axes.push_back({kProcessesKey, {"1", "2", "4"}});
        r.rows = {sweepRow(0, "1", completed(100, 120 * kMiB)), sweepRow(1, "2", completed(180, 0)),
                  sweepRow(2, "4", completed(300, 0))};
        for (size_t i = 0; i < r.rows.size(); ++i) {
            r.rows[i].point.values = {{kProcessesKey, r.spec.axes[0].values[i]}};
            r.rows[i].point.processes = 1 << i;
        }
        r.rows[1].allreduce_ms = 40;
        r.rows[1].overlap_pct = 75;
        QTemporaryDir out;
        writeSweepReport(r, out.path().toStdString());
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        QString error;
        QVERIFY2(view->openDirectory(out.path(), &error), qPrintable(error));
        SweepCharts* charts = view->sweepCharts();
        QCOMPARE(charts->categories(), (QStringList{"1", "2", "4"}));
        QVERIFY(charts->memoryLines().empty());
        QCOMPARE(int(charts->scalingLines().size()), 2); // measured, ideal
        QCOMPARE(charts->scalingLines()[0]->data()->at(1)->value, 1.8);
        QCOMPARE(charts->scalingLines()[0]->data()->at(2)->value, 3.0);
        QCOMPARE(charts->scalingLines()[1]->data()->at(2)->value, 4.0);
        QCOMPARE(view->sweepModel()->rowAt(1).allreduce_ms, 40.0);
        // A sweep over a config key again: the memory panel comes back.
        QTemporaryDir batch;
        writeSweepReport(constructedSweep(), batch.path().toStdString());
        QVERIFY2(view->openDirectory(batch.path(), &error), qPrintable(error));
        QVERIFY(charts->scalingLines().empty());
        QVERIFY(!charts->memoryLines().empty());
    }

    void showsALadderDirectoryWithKeptRungsHighlighted() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        QTemporaryDir out;
        writeLadderReport(constructedLadder(), out.path().toStdString());
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        QString error;
        QVERIFY2(view->openDirectory(out.path(), &error), qPrintable(error));
        QVERIFY(view->showsLadder());
        QCOMPARE(view->ladderModel()->rowCount(), 4);
        QCOMPARE(view->table()->model()->columnCount(), int(ladderTableSpec({}).columns.size()));
        LadderChart* chart = view->ladderChart();
        QCOMPARE(chart->rungCount(), 4);
        QCOMPARE(chart->keptBars()->data()->at(1)->value, 140.0);
        QVERIFY(std::isnan(chart->droppedBars()->data()->at(1)->value));
        QCOMPARE(chart->droppedBars()->data()->at(3)->value, 120.0);
        QVERIFY(std::isnan(chart->keptBars()->data()->at(3)->value));
        QVERIFY(std::isnan(chart->keptBars()->data()->at(2)->value)); // skipped rung
        QVERIFY(std::isnan(chart->droppedBars()->data()->at(2)->value));
        // Saved for a person to look at, next to the screenshots.
        const QString shots = qEnvironmentVariable("TRAINSCOPE_SCREENSHOT_DIR", out.path());
        QDir().mkpath(shots);
        QVERIFY(view->exportPng(QDir(shots).filePath(QStringLiteral("ladder-chart.png")), &error));
    }

    void refusesABadValueBeforeRunning() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.form()->setConfig(testing::tinyConfig());
        window.form()->revalidate();
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        ExperimentRequest request;
        request.values = QStringLiteral("16,lots");
        view->controls()->setRequest(request);
        QString error;
        QVERIFY(!view->start(&error));
        QVERIFY2(error.contains(QStringLiteral("lots")), qPrintable(error));
        QVERIFY(!view->isRunning());
        QVERIFY(!QDir(fx.runsDir()).exists() || QDir(fx.runsDir()).isEmpty());
    }

    void remembersTheLastRequestAcrossARestart() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.form()->setConfig(testing::tinyConfig());
        ExperimentRequest request;
        request.key = QStringLiteral("threads");
        request.values = QStringLiteral("1,lots"); // refused, but still what the user typed
        request.key2 = QStringLiteral("channels_last");
        request.values2 = QStringLiteral("false,true");
        request.steps = 7;
        request.warmup = 2;
        request.prune.amount = 0.6;
        request.latencyRuns = 9;
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        view->controls()->setRequest(request);
        QVERIFY(!view->start());
        fx.window.reset();
        ExperimentsView* reopened = fx.open(machine_).page<ExperimentsView>("experiments");
        const ExperimentRequest back = reopened->controls()->request();
        QCOMPARE(back.key, request.key);
        QCOMPARE(back.values, request.values);
        QCOMPARE(back.key2, request.key2);
        QCOMPARE(back.values2, request.values2);
        QCOMPARE(back.steps, 7);
        QCOMPARE(back.warmup, 2);
        QCOMPARE(back.prune.amount, 0.6);
        QCOMPARE(back.latencyRuns, 9);
    }

    void storedRequestsRoundTripAndBadFieldsKeepDefaults() {
        ExperimentRequest prune;
        prune.mode = ExperimentMode::Prune;
        prune.weights = QStringLiteral("/data/best.pt");
        prune.prune.structured = true;
        prune.prune.norm = 2;
        prune.prune.include_linear = true;
        const ExperimentRequest back = requestFromJson(requestToJson(prune));
        QVERIFY(back.mode == ExperimentMode::Prune);
        QCOMPARE(back.weights, prune.weights);
        QVERIFY(back.prune.structured);
        QCOMPARE(back.prune.norm, 2);
        QVERIFY(back.prune.include_linear);

        const ExperimentRequest defaults;
        for (const char* stored : {"", "not json", "[1,2]",
                                   "{\"mode\":\"dance\",\"steps\":0,"
                                   "\"warmup\":\"five\",\"amount\":1.5,\"norm\":3,\"key\":7}"}) {
            const ExperimentRequest r = requestFromJson(QString::fromUtf8(stored));
            QVERIFY2(r.mode == defaults.mode, stored);
            QCOMPARE(r.key, defaults.key);
            QCOMPARE(r.steps, defaults.steps);
            QCOMPARE(r.warmup, defaults.warmup);
            QCOMPARE(r.prune.amount, defaults.prune.amount);
            QCOMPARE(r.prune.norm, defaults.prune.norm);
        }
        // A field that fits is read even when its neighbours do not.
        QCOMPARE(requestFromJson(QStringLiteral("{\"steps\":0,\"warmup\":3}")).warmup, 3);
    }

    void runsARealTwoPointSweep() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        ExperimentConfig config = testing::tinyConfig();
        config.name = "gui-sweep";
        window.form()->setConfig(config);
        window.form()->revalidate();
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        ExperimentRequest request;
        request.values = QStringLiteral("8,16");
        request.steps = 2;
        request.warmup = 1;
        view->controls()->setRequest(request);
        QSignalSpy finished(view->job(), &ExperimentJob::finished);
        QSignalSpy refused(&window, &MainWindow::errorReported);
        QString error;
        QVERIFY2(view->start(&error), qPrintable(error));
        QVERIFY(view->isRunning());
        QVERIFY(!view->controls()->startButton()->isEnabled());
        QVERIFY(view->controls()->stopButton()->isEnabled());
        window.startRun(); // no single run while the sweep runs
        QCOMPARE(refused.count(), 1);
        QVERIFY(!window.controller()->isRunning());

        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kSweepTimeoutMs);
        const auto outcome = finished.at(0).at(0).value<ExperimentOutcome>();
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QVERIFY(!outcome.cancelled);
        QCOMPARE(outcome.completed, 2);
        QVERIFY(QFileInfo(outcome.dir)
                    .absolutePath()
                    .startsWith(QFileInfo(fx.runsDir()).absoluteFilePath()));
        QVERIFY(QFile::exists(QDir(outcome.dir).filePath(QStringLiteral("sweep.csv"))));
        QVERIFY(QFile::exists(QDir(outcome.dir).filePath(QStringLiteral("sweep.md"))));
        QVERIFY(
            QFile::exists(QDir(outcome.dir).filePath(QStringLiteral("sweep_images_per_sec.png"))));
        QCOMPARE(view->sweepModel()->rowCount(), 2);
        for (const SweepRow& row : view->sweepModel()->rows()) {
            QCOMPARE(row.result.outcome, PointOutcome::Completed);
            QVERIFY(row.result.summary.median_images_per_sec > 0);
            QVERIFY(std::filesystem::exists(row.result.run_dir / "run.json"));
        }
        QCOMPARE(view->sweepCharts()->categories(), (QStringList{"8", "16"}));
        QVERIFY(view->controls()->startButton()->isEnabled());
        QVERIFY(!view->isRunning());

        // Read back from disk, the same rows.
        QVERIFY(view->openDirectory(outcome.dir));
        QCOMPARE(view->sweepModel()->rowCount(), 2);
        QCOMPARE(view->sweepModel()->rowAt(0).point.label(), std::string("batch_size=8"));
    }

    void sweepShowsTheRunningPointStepByStep() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        ExperimentConfig config = testing::tinyConfig();
        config.name = "gui-sweep-live";
        window.form()->setConfig(config);
        window.form()->revalidate();
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        ExperimentRequest request;
        request.values = QStringLiteral("8,16");
        request.steps = 3;
        request.warmup = 1;
        view->controls()->setRequest(request);
        QSignalSpy live(view->job(), &ExperimentJob::liveUpdated);
        QSignalSpy finished(view->job(), &ExperimentJob::finished);
        int live_before_first_point = -1;
        QThread* rows_on = nullptr;
        connect(view->job(), &ExperimentJob::sweepProgress, this, [&](const SweepRow&) {
            if (live_before_first_point < 0) live_before_first_point = int(live.count());
            rows_on = QThread::currentThread();
        });
        QString error;
        QVERIFY2(view->start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kSweepTimeoutMs);
        // The first point's steps were shown while it ran, before its row arrived.
        QVERIFY(live_before_first_point >= 1);
        QCOMPARE(rows_on, QThread::currentThread());
        int64_t steps = 0;
        for (const QList<QVariant>& args : live)
            steps += int64_t(args.at(0).value<LiveUpdate>().steps.size());
        QVERIFY(steps >= 2); // at least one step of each point
        // The live chart holds the last point's own steps, in order.
        const RunHistory& shown = view->sweepPanel()->liveChart()->history();
        QVERIFY(shown.info.has_value());
        QCOMPARE(shown.info->config.batch_size, 16);
        QVERIFY(!shown.steps.empty());
        QVERIFY(int64_t(shown.steps.size()) <= view->job()->stepsPerPoint());
        for (size_t i = 1; i < shown.steps.size(); ++i)
            QVERIFY(shown.steps[i].global_step > shown.steps[i - 1].global_step);
        QVERIFY(view->sweepPanel()->liveChart()->replotCount() >= 1);
        QCOMPARE(view->sweepModel()->rowCount(), 2);
    }

    void stopEndsASweepWithTheRestCancelled() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        ExperimentConfig config = testing::tinyConfig();
        config.name = "gui-sweep-stop";
        window.form()->setConfig(config);
        window.form()->revalidate();
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        ExperimentRequest request;
        request.key = QStringLiteral("lr");
        request.values = QStringLiteral("0.1,0.05,0.02,0.01");
        request.steps = 30;
        request.warmup = 1;
        view->controls()->setRequest(request);
        QSignalSpy progress(view->job(), &ExperimentJob::sweepProgress);
        QSignalSpy finished(view->job(), &ExperimentJob::finished);
        QString error;
        QVERIFY2(view->start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 1 || finished.count() == 1, kSweepTimeoutMs);
        view->controls()->stopButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kSweepTimeoutMs);
        const auto outcome = finished.at(0).at(0).value<ExperimentOutcome>();
        QVERIFY(outcome.cancelled);
        QVERIFY(outcome.error.isEmpty());

        // Every point has a row; the last ones were not run.
        const auto& rows = view->sweepModel()->rows();
        QCOMPARE(int(rows.size()), 4);
        QCOMPARE(rows.back().result.outcome, PointOutcome::Skipped);
        QCOMPARE(rows.back().result.message, std::string("not run: cancelled"));
        QCOMPARE(view->sweepModel()
                     ->index(3, view->sweepModel()->column(sweep_column::kStatus))
                     .data()
                     .toString(),
                 QStringLiteral("cancelled"));
        QVERIFY(outcome.completed < 4);
        QVERIFY(view->controls()->status().contains(QStringLiteral("Stopped")));
        // The report on disk says the same.
        const auto read = parseCsvRecords([&] {
            std::ifstream in(std::filesystem::path(outcome.dir.toStdString()) / "sweep.csv");
            return std::string(std::istreambuf_iterator<char>(in), {});
        }());
        QCOMPARE(int(read.size()), 5);
        QCOMPARE(QString::fromStdString(read.back()[2]), QStringLiteral("skipped"));
        QVERIFY(!view->isRunning());
        QVERIFY(view->controls()->startButton()->isEnabled());
    }

    void pruneModelUnderModelTester() {
        PruneLayerTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(constructedPrune().layers);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(pruneLayerTableSpec({}).columns.size()));
        QCOMPARE(model.index(1, model.column(prune_column::kLayer)).data().toString(),
                 QStringLiteral("layer1.0.conv1.weight"));
        QCOMPARE(model.index(0, model.column(prune_column::kSparsityAfter)).data().toString(),
                 QStringLiteral("50.0%"));
        QCOMPARE(
            model.index(0, model.column(prune_column::kSparsityAfter)).data(SortRole).toDouble(),
            0.5);
        QCOMPARE(
            model.index(2, model.column(prune_column::kZerosAfter)).data(SortRole).toLongLong(),
            32);
        SortFilterProxy proxy;
        QAbstractItemModelTester proxy_tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.sort(model.column(prune_column::kParams), Qt::AscendingOrder); // 9 < 64 < 100
        QCOMPARE(column(proxy, model.column(prune_column::kLayer)),
                 (QStringList{"layer1.0.conv1.weight", "fc.weight", "conv1.weight"}));
        proxy.sort(model.column(prune_column::kZerosAfter), Qt::DescendingOrder); // 50 > 32 > 4
        QCOMPARE(column(proxy, model.column(prune_column::kLayer)),
                 (QStringList{"conv1.weight", "fc.weight", "layer1.0.conv1.weight"}));
        proxy.sort(model.column(prune_column::kSparsityAfter), Qt::AscendingOrder); // 44.4 % first
        QCOMPARE(column(proxy, model.column(prune_column::kLayer)).front(),
                 QStringLiteral("layer1.0.conv1.weight"));
        model.clear();
        QCOMPARE(proxy.rowCount(), 0);
    }

    void showsAPruneDirectoryWrittenByCore() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.showView(QStringLiteral("experiments"));
        QTemporaryDir out;
        writePruneReport(constructedPrune(), out.path().toStdString());
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        QString error;
        QVERIFY2(view->openDirectory(out.path(), &error), qPrintable(error));
        QVERIFY(view->showsPrune());
        QCOMPARE(view->pruneModel()->rowCount(), 3);
        QCOMPARE(view->table()->model()->rowCount(), 3);
        QCOMPARE(view->table()->model()->columnCount(),
                 int(pruneLayerTableSpec({}).columns.size()));
        const QString summary = view->summaryText();
        QVERIFY2(summary.contains(QStringLiteral("62.5 %")) &&
                     summary.contains(QStringLiteral("50.0 %")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("12.50 ms")) &&
                     summary.contains(QStringLiteral("12.75 ms")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Sparsity did not make inference faster")),
                 qPrintable(summary));
        PruneChart* chart = view->pruneChart();
        QCOMPARE(chart->layerCount(), 3);
        QCOMPARE(chart->afterBars()->dataCount(), 3);
        QCOMPARE(chart->afterBars()->data()->at(0)->value, 50.0);
        QCOMPARE(chart->afterBars()->data()->at(2)->value, 50.0);
        QVERIFY(chart->beforeBars() == nullptr); // no zeros before: no grey bars
        QCOMPARE(chart->overallLine()->data()->at(0)->value, 100.0 * (50 + 4 + 32) / 173);
        const QString png = out.filePath(QStringLiteral("prune-chart.png"));
        QVERIFY(view->exportPng(png, &error));
        QVERIFY(!QImage(png).isNull());

        // Back to a sweep: the sweep's table and charts again.
        QTemporaryDir sweep;
        writeSweepReport(constructedSweep(), sweep.path().toStdString());
        QVERIFY(view->openDirectory(sweep.path(), &error));
        QVERIFY(!view->showsPrune());
        QCOMPARE(view->table()->model()->columnCount(),
                 int(sweepTableSpec(constructedSweep().rows).columns.size()));

        // A broken prune.json is refused with the file named.
        QFile broken(out.filePath(QStringLiteral("prune.json")));
        QVERIFY(broken.open(QIODevice::WriteOnly | QIODevice::Truncate));
        broken.write("{ not json");
        broken.close();
        QVERIFY(!view->openDirectory(out.path(), &error));
        QVERIFY2(error.contains(QStringLiteral("prune.json")), qPrintable(error));
    }

    void refusesAMissingWeightsFile() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.form()->setConfig(testing::tinyConfig());
        window.form()->revalidate();
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        ExperimentRequest request;
        request.mode = ExperimentMode::Prune;
        view->controls()->setRequest(request);
        QString error;
        QVERIFY(!view->start(&error));
        QVERIFY2(error.contains(QStringLiteral("weights")), qPrintable(error));
        request.weights = QStringLiteral("/nonexistent/final.pt");
        view->controls()->setRequest(request);
        QVERIFY(!view->start(&error));
        QVERIFY2(error.contains(QStringLiteral("/nonexistent/final.pt")), qPrintable(error));
        QVERIFY(view->controls()->status().contains(QStringLiteral("/nonexistent/final.pt")));
        QVERIFY(!view->isRunning());
        QVERIFY(!QDir(fx.runsDir()).exists() || QDir(fx.runsDir()).isEmpty());
    }

    void reportsAnUnreadableWeightsFile() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.form()->setConfig(testing::tinyConfig());
        window.form()->revalidate();
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        QTemporaryDir dir;
        const QString garbage = dir.filePath(QStringLiteral("garbage.pt"));
        QFile file(garbage);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a checkpoint");
        file.close();
        ExperimentRequest request;
        request.mode = ExperimentMode::Prune;
        request.weights = garbage;
        request.latencyRuns = 1;
        view->controls()->setRequest(request);
        QSignalSpy finished(view->pruneJob(), &PruneJob::finished);
        QString error;
        QVERIFY2(view->start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kSweepTimeoutMs);
        const auto outcome = finished.at(0).at(0).value<PruneOutcome>();
        QVERIFY(!outcome.error.isEmpty());
        QVERIFY2(view->controls()->status().contains(QStringLiteral("failed")),
                 qPrintable(view->controls()->status()));
        QVERIFY(!view->isRunning());
        QVERIFY(view->controls()->startButton()->isEnabled());
    }

    void runsARealPruneStudy() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        ExperimentConfig config = testing::tinyConfig();
        config.name = "gui-prune";
        QTemporaryDir train;
        const std::string weights =
            testing::trainWeights(config, std::filesystem::path(train.path().toStdString()));
        QVERIFY(!weights.empty());
        window.form()->setConfig(config);
        window.form()->revalidate();
        window.showView(QStringLiteral("experiments"));
        ExperimentsView* view = window.page<ExperimentsView>("experiments");
        ExperimentRequest request;
        request.mode = ExperimentMode::Prune;
        request.weights = QString::fromStdString(weights);
        request.prune.amount = 0.5;
        request.latencyRuns = 3;
        view->controls()->setRequest(request);
        QCOMPARE(view->controls()->request().prune.amount, 0.5);
        QSignalSpy finished(view->pruneJob(), &PruneJob::finished);
        QSignalSpy experiment(view, &ExperimentsView::experimentFinished);
        QString error;
        QVERIFY2(view->start(&error), qPrintable(error));
        QVERIFY(view->isRunning());
        QVERIFY(!view->controls()->startButton()->isEnabled());
        QVERIFY(!view->controls()->stopButton()->isEnabled()); // a short evaluation
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kSweepTimeoutMs);
        const auto outcome = finished.at(0).at(0).value<PruneOutcome>();
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(experiment.count(), 1);
        QVERIFY(QFileInfo(outcome.dir).fileName().endsWith(QStringLiteral("gui-prune-pruned")));
        QVERIFY(QFile::exists(QDir(outcome.dir).filePath(QStringLiteral("prune.md"))));
        QVERIFY(QFile::exists(QDir(outcome.dir).filePath(QStringLiteral("prune.json"))));
        QVERIFY(QFile::exists(QDir(outcome.dir).filePath(QStringLiteral("pruned.pt"))));
        QVERIFY(view->showsPrune());
        PruneLayerTableModel* model = view->pruneModel();
        QVERIFY(model->rowCount() > 10); // resnet18's convolutions
        for (int r = 0; r < model->rowCount(); ++r) {
            const double after = model->index(r, model->column(prune_column::kSparsityAfter))
                                     .data(SortRole)
                                     .toDouble();
            QVERIFY2(
                std::abs(after - 0.5) < 0.01,
                qPrintable(model->index(r, model->column(prune_column::kLayer)).data().toString()));
        }
        QCOMPARE(view->pruneChart()->layerCount(), model->rowCount());
        QVERIFY(view->summaryText().contains(
            QString::fromStdString(outcome.result.verdict).toHtmlEscaped().left(30)));
        QVERIFY(view->controls()->status().contains(QStringLiteral("finished")));
        QVERIFY(!view->isRunning());
        QVERIFY(view->controls()->startButton()->isEnabled());

        // Read back from disk, the same layers.
        QVERIFY(view->openDirectory(outcome.dir));
        QCOMPARE(view->pruneModel()->rowCount(), int(outcome.result.layers.size()));
    }

private:
    Machine machine_;
};

TRAINSCOPE_WIDGET_TEST(test_experiments, ExperimentsTest)
#include "test_experiments.moc"
