// The Distributed tab and opening a folder of per-rank traces: the
// TensorBoard plugin's NCCL fixtures laid out as its run folder
// (worker<N>.<timestamp>.pt.trace.json) with the plugin's numbers reaching the
// tables and charts (tests/torchfree/DistributedViewTest.cpp checks the
// analysis itself), the two ranks of a real PyTorch 2 NCCL job
// (tests/data/distributed_hta), both models under QAbstractItemModelTester,
// and the folders that form no view.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "LegendChecks.h"
#include "ModelCells.h"
#include "SyntheticRanks.h"
#include "SyntheticRecords.h"
#include "TestPaths.h"
#include "WidgetTests.h"
#include "common/DocumentSelection.h"
#include "common/ItemRoles.h"
#include "common/SpecTableModel.h"
#include "ranks/DistributedModels.h"
#include "ranks/RankBarsChart.h"
#include "ranks/RankHeatMap.h"
#include "ranks/RanksView.h"
#include "report/DistributedTables.h"
#include "report/RunDirectory.h"
#include "shell/OpenedDocument.h"

using namespace ts;
using namespace ts::gui;
using testing::sortValue;

namespace {

QString dataPath(const QString& relative) {
    return QString::fromUtf8(TRAINSCOPE_SOURCE_DIR) + QStringLiteral("/tests/data/") + relative;
}

// The plugin's two NCCL workers as a run folder.
void writeNcclFolder(const QTemporaryDir& dir) {
    QVERIFY(QFile::copy(dataPath(QStringLiteral("tb_plugin/test_distributed_nccl_0.json")),
                        dir.filePath(QStringLiteral("worker0.1000.pt.trace.json"))));
    QVERIFY(QFile::copy(dataPath(QStringLiteral("tb_plugin/test_distributed_nccl_1.json")),
                        dir.filePath(QStringLiteral("worker1.1001.pt.trace.json"))));
}

} // namespace

class DistributedTabTest : public QObject {
    Q_OBJECT
private slots:
    void aRankFolderOpensWithItsDistributedView() {
        QTemporaryDir dir;
        writeNcclFolder(dir);
        const OpenedDocument doc = openDocument(dir.path());
        QVERIFY2(doc.ok(), doc.error.c_str());
        QVERIFY(doc.distributed);
        QCOMPARE(int(doc.distributed->size()), 1);
        QCOMPARE(int(doc.distributed->front().ranks.size()), 2);
        // The other tabs show the lowest rank's trace.
        QVERIFY(doc.trace);
        QVERIFY(QString::fromStdString(doc.trace_path)
                    .endsWith(QStringLiteral("worker0.1000.pt.trace.json")));
        QVERIFY(doc.analysis->full);
    }

    void thePluginsNumbersReachTheTablesAndCharts() {
        QTemporaryDir dir;
        writeNcclFolder(dir);
        const OpenedDocument doc = openDocument(dir.path());
        RanksView view;
        QAbstractItemModelTester ranks_tester(
            view.rankModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester ops_tester(view.commOpModel(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setSpans(doc.distributed, QString::fromStdString(doc.path));
        QVERIFY(view.messageText().isEmpty());
        QCOMPARE(view.stepLabels(), QStringList({QStringLiteral("Average"), QStringLiteral("0")}));
        view.selectStep(1);
        const RankTableModel& ranks = *view.rankModel();
        QCOMPARE(ranks.rowCount(), 2);
        // steps_to_overlap['0']: worker0 [30, 75, 75, 55], worker1 [121, 40, 74, 0] (us).
        const std::vector<std::pair<int, std::array<double, 4>>> overlap{{0, {30, 75, 75, 55}},
                                                                         {1, {121, 40, 74, 0}}};
        for (const auto& [row, us] : overlap) {
            QCOMPARE(sortValue(ranks, row, ranks.column(distributed_column::kComputation)), us[0]);
            QCOMPARE(sortValue(ranks, row, ranks.column(distributed_column::kOverlapping)), us[1]);
            QCOMPARE(sortValue(ranks, row, ranks.column(distributed_column::kCommunication)),
                     us[2]);
            QCOMPARE(sortValue(ranks, row, ranks.column(distributed_column::kOther)), us[3]);
        }
        // steps_to_wait['0']: worker0 [1169, 464], worker1 [1169, 3].
        QCOMPARE(sortValue(ranks, 0, ranks.column(distributed_column::kDataTransfer)), 1169.0);
        QCOMPARE(sortValue(ranks, 0, ranks.column(distributed_column::kSynchronizing)), 464.0);
        QCOMPARE(sortValue(ranks, 1, ranks.column(distributed_column::kSynchronizing)), 3.0);
        // The chart stacks the same figures, rank 0 on top.
        const RankBars& bars = view.overlapChart()->bars();
        QCOMPARE(bars.ms[1][0], 0.121);
        QVERIFY(view.overlapChart()->describeAt(1, 0.01).contains(QStringLiteral("Computation")));
        QCOMPARE(view.waitChart()->bars().ms[0][1], 0.464);
        // comm_ops worker1: broadcast 1 call, 212480 bytes, 39 / 36 us; all_reduce 1133 us.
        view.selectRank(1);
        const CommOpModel& ops = *view.commOpModel();
        QCOMPARE(ops.rowCount(), 2);
        QCOMPARE(ops.index(0, ops.column(distributed_column::kName)).data().toString(),
                 QStringLiteral("nccl:broadcast"));
        QCOMPARE(sortValue(ops, 0, ops.column(distributed_column::kTotalBytes)), 212480.0);
        QCOMPARE(sortValue(ops, 0, ops.column(distributed_column::kTotalLatency)), 39.0);
        QCOMPARE(sortValue(ops, 0, ops.column(distributed_column::kDataTransfer)), 36.0);
        QCOMPARE(sortValue(ops, 1, ops.column(distributed_column::kTotalLatency)), 1133.0);
        // Rank 1 computes 91 us longer in a 235 us step: named as the straggler, with numbers.
        QVERIFY2(view.stragglerText().contains(QStringLiteral("rank 1")),
                 qPrintable(view.stragglerText()));
        QVERIFY(ranks.index(1, ranks.column(distributed_column::kRank))
                    .data()
                    .toString()
                    .contains(QStringLiteral("straggler")));
        view.clear();
        QVERIFY(!view.messageText().isEmpty());
    }

    void aRealNcclJobOpens() {
        const OpenedDocument doc = openDocument(dataPath(QStringLiteral("distributed_hta")));
        QVERIFY2(doc.ok(), doc.error.c_str());
        QVERIFY2(doc.distributed, doc.distributed_error.c_str());
        RanksView view;
        view.setSpans(doc.distributed, QString::fromStdString(doc.path));
        QCOMPARE(view.rankModel()->rowCount(), 2);
        QVERIFY(view.summaryText().contains(QStringLiteral("NCCL")));
        QVERIFY(view.commOpModel()->rowCount() >= 3); // all_to_all, all_reduce, _all_gather_base
    }

    // A data-parallel run (trainscope-cli run --nproc-per-node 2 with
    // profiling): its run, the Distributed tab over ranks/<r>/trace.json and
    // the ranks one above the other in the timeline.
    void aDataParallelRunOpensAsItsRunWithItsRanks() {
        QTemporaryDir dir;
        {
            RunRecorder recorder(dir.path().toStdString());
            RunInfo info;
            info.config.name = "job";
            recorder.onRunStarted(info);
            for (const StepRecord& step : ts::testing::syntheticSteps(0, 3))
                recorder.onStep(step);
            recorder.onRunFinished(RunSummary{});
        }
        const OpenedDocument unprofiled = openDocument(dir.path());
        QVERIFY2(unprofiled.ok(), unprofiled.error.c_str());
        QVERIFY(unprofiled.run);
        QVERIFY(!unprofiled.distributed && !unprofiled.trace && !unprofiled.timeline_trace);

        for (const char* rank : {"0", "1"}) {
            QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("ranks/%1").arg(rank)));
            QVERIFY(QFile::copy(
                dataPath(QStringLiteral("tb_plugin/test_distributed_nccl_%1.json").arg(rank)),
                dir.filePath(QStringLiteral("ranks/%1/trace.json").arg(rank))));
        }
        const OpenedDocument doc = openDocument(dir.path());
        QVERIFY2(doc.ok(), doc.error.c_str());
        QVERIFY(doc.run);
        QVERIFY2(doc.distributed, doc.distributed_error.c_str());
        QCOMPARE(int(doc.distributed->front().ranks.size()), 2);
        QCOMPARE(QString::fromStdString(doc.distributed->front().ranks[1].worker),
                 QStringLiteral("rank1"));
        QVERIFY(
            QString::fromStdString(doc.trace_path).endsWith(QStringLiteral("ranks/0/trace.json")));
        QVERIFY(doc.trace && doc.analysis->full && doc.tracks);
        QVERIFY(doc.timeline_trace);
        const Trace& ranks = *doc.timeline_trace;
        QVERIFY(ranks.events.size() > doc.trace->events.size()); // both ranks' events
        QVERIFY(ranks.lanes.size() > doc.trace->lanes.size());
        QVERIFY(QString::fromStdString(ranks.lanes.front().name).startsWith("rank 0: "));
        QVERIFY(QString::fromStdString(ranks.lanes.back().name).startsWith("rank 1: "));
    }

    // The legend of the rank bars sits under them: at any width the view
    // gives a chart (two side by side), every part's name shows whole.
    void rankBarsShowEveryLegendEntryWhole() {
        RankBarsChart chart;
        chart.setBars({QStringLiteral("Computation / communication, average step"),
                       {QStringLiteral("Computation"), QStringLiteral("Overlapping"),
                        QStringLiteral("Communication"), QStringLiteral("Other")},
                       {QStringLiteral("rank 0"), QStringLiteral("rank 1")},
                       {{75, 30, 170, 340}, {98, 38, 150, 330}}});
        chart.show();
        for (const int width : {1200, 480, 380, 250}) {
            chart.resize(width, 300);
            chart.replot();
            int entries = 0;
            const QString clipped = testing::clippedLegendEntries(chart, &entries);
            QVERIFY2(clipped.isEmpty(),
                     qPrintable(QStringLiteral("at %1 px: %2").arg(width).arg(clipped)));
            QCOMPARE(entries, 4);
            // The title wraps inside the chart instead of running off both ends.
            const QCPTextElement* title = chart.titleElement();
            QVERIFY2(chart.viewport().contains(title->outerRect()),
                     qPrintable(QStringLiteral("at %1 px: the title spans %2 px")
                                    .arg(width)
                                    .arg(title->outerRect().width())));
            const QRect text = QFontMetrics(title->font())
                                   .boundingRect(title->rect(), Qt::TextWordWrap, title->text());
            QVERIFY2(title->rect().contains(text),
                     qPrintable(QStringLiteral("at %1 px: the title is cut").arg(width)));
        }
    }

    void foldersThatFormNoView() {
        // One trace: opened as that trace.
        QTemporaryDir one;
        QVERIFY(QFile::copy(dataPath(QStringLiteral("tb_plugin/test_distributed_nccl_0.json")),
                            one.filePath(QStringLiteral("worker0.1000.pt.trace.json"))));
        const OpenedDocument single = openDocument(one.path());
        QVERIFY2(single.ok(), single.error.c_str());
        QVERIFY(single.trace);
        QVERIFY(!single.distributed);

        // No trace at all: the folder is named.
        QTemporaryDir empty;
        const OpenedDocument none = openDocument(empty.path());
        QVERIFY(!none.ok());
        QVERIFY2(QString::fromStdString(none.error).contains(empty.path()), none.error.c_str());

        // A rank without collectives is left out, named; the other forms the view.
        QTemporaryDir mismatched;
        QVERIFY(QFile::copy(dataPath(QStringLiteral("tb_plugin/test_distributed_nccl_0.json")),
                            mismatched.filePath(QStringLiteral("worker0.1000.pt.trace.json"))));
        QVERIFY(QFile::copy(dataPath(QStringLiteral("tb_plugin/test_memory_view.json")),
                            mismatched.filePath(QStringLiteral("worker1.1001.pt.trace.json"))));
        const OpenedDocument partial = openDocument(mismatched.path());
        QVERIFY2(partial.ok(), partial.error.c_str());
        QVERIFY(partial.trace);
        QVERIFY(partial.distributed);
        QCOMPARE(int(partial.distributed->front().ranks.size()), 1);
        RanksView view;
        view.setSpans(partial.distributed, QString::fromStdString(partial.path),
                      QString::fromStdString(partial.distributed_error));
        QVERIFY2(view.stragglerText().contains(
                     QStringLiteral("Left out: %1")
                         .arg(mismatched.filePath(QStringLiteral("worker1.1001.pt.trace.json")))),
                 qPrintable(view.stragglerText()));

        // Not one rank forms a view: the folder's reason is shown.
        QTemporaryDir none_form;
        for (const char* worker : {"worker0.1000.pt.trace.json", "worker1.1001.pt.trace.json"})
            QVERIFY(QFile::copy(dataPath(QStringLiteral("tb_plugin/test_memory_view.json")),
                                none_form.filePath(QString::fromLatin1(worker))));
        const OpenedDocument no_view = openDocument(none_form.path());
        QVERIFY2(no_view.ok(), no_view.error.c_str());
        QVERIFY(!no_view.distributed);
        view.setSpans(no_view.distributed, QString::fromStdString(no_view.path),
                      QString::fromStdString(no_view.distributed_error));
        QVERIFY(
            view.messageText().startsWith(QStringLiteral("These traces form no distributed view")));
    }

    // 1,024 ranks of 200 steps from their summaries: no bars, the spreads,
    // the heat map with the straggler's row brightest; a cell picks its rank
    // and step, a double click asks for that rank's trace at that step.
    void aThousandRanksReadAsDistributionsAndAHeatMap() {
        const auto views = std::make_shared<std::vector<DistributedView>>();
        views->push_back(computeDistributedView(testing::syntheticRankSummaries(1024, 200, 517),
                                                GpuAnalysisOptions{}));
        const DistributedView& v = views->front();
        QCOMPARE(v.ranks.size(), size_t(1024));
        QVERIFY2(QString::fromStdString(v.arrivals.verdict)
                     .startsWith(QStringLiteral("rank 517 arrives last at 200 of 200 collectives")),
                 v.arrivals.verdict.c_str());
        DocumentSelection selection;
        selection.setDocument(QStringLiteral("/folder"));
        RanksView view;
        view.followSelection(&selection);
        view.resize(1200, 900);
        view.setSpans(views, QStringLiteral("/folder"));
        QVERIFY(!view.barsShown());
        QCOMPARE(view.spreadModel()->rowCount(), 6);
        RankHeatMap* heat = view.heatMap();
        QCOMPARE(heat->data().ranks.size(), size_t(1024));
        QCOMPARE(heat->data().steps.size(), 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // The straggler computes 1.5x: its row is the brightest (above the 99th percentile).
        view.selectMetric(1);
        const HeatMapData& data = heat->data();
        for (int s = 0; s < 200; s += 37)
            QVERIFY(data.ns[517 * 200 + size_t(s)] > heat->highNs() * 0.99);
        // Clicking the straggler's cell at step 7 picks rank 517 and step 7.
        const QRect area = heat->cellArea();
        const QPointF cell(area.left() + (7.5 / 200) * area.width(),
                           area.top() + (517.5 / 1024) * area.height());
        QCOMPARE(heat->cellAt(cell), QPoint(517, 7));
        QVERIFY2(
            heat->describeAt(cell).startsWith(QStringLiteral("rank 517 · step 7 · Computation")),
            qPrintable(heat->describeAt(cell)));
        view.pickCell(517, 7);
        QCOMPARE(selection.current().rank, std::optional<int>(517));
        QSignalSpy opened(&view, &RanksView::openRequested);
        view.openCell(517, 7);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(0).toString(), QStringLiteral("/synthetic/rank-517.json"));
        selection.setDocument(QStringLiteral("/synthetic/rank-517.json"));
        QCOMPARE(selection.current().step, std::optional<int64_t>(7));
        QCOMPARE(selection.current().range->start_ns, v.ranks[517].steps[7].start_ns);
        // A rank's row: its whole trace for the average step.
        view.selectStep(0);
        view.openRankRow(3);
        QCOMPARE(opened.count(), 2);
        QCOMPARE(opened.at(1).at(0).toString(), QStringLiteral("/synthetic/rank-3.json"));
        // Zooming keeps the window inside the map and draws.
        heat->zoom(8, cell);
        QVERIFY(heat->window().width() < 30 && heat->window().height() < 130);
        QVERIFY(heat->window().contains(QPointF(7.5, 517.5)));
        heat->repaint();
        QVERIFY(heat->frameMeter().count() > 0);
    }
};

TRAINSCOPE_WIDGET_TEST(test_distributed, DistributedTabTest)
#include "test_distributed.moc"
