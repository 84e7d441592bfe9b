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
#include "SyntheticRecords.h"
#include "TestPaths.h"
#include "WidgetTests.h"
#include "common/ItemRoles.h"
#include "ranks/DistributedModels.h"
#include "ranks/RankBarsChart.h"
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

        // Ranks without the same collectives: the first rank still opens, with the reason.
        QTemporaryDir mismatched;
        QVERIFY(QFile::copy(dataPath(QStringLiteral("tb_plugin/test_distributed_nccl_0.json")),
                            mismatched.filePath(QStringLiteral("worker0.1000.pt.trace.json"))));
        QVERIFY(QFile::copy(dataPath(QStringLiteral("tb_plugin/test_memory_view.json")),
                            mismatched.filePath(QStringLiteral("worker1.1001.pt.trace.json"))));
        const OpenedDocument partial = openDocument(mismatched.path());
        QVERIFY2(partial.ok(), partial.error.c_str());
        QVERIFY(partial.trace);
        QVERIFY(!partial.distributed);
        QVERIFY(!partial.distributed_error.empty());
        RanksView view;
        view.setSpans(partial.distributed, QString::fromStdString(partial.path),
                      QString::fromStdString(partial.distributed_error));
        QVERIFY(
            view.messageText().startsWith(QStringLiteral("These traces form no distributed view")));
    }
};

TRAINSCOPE_WIDGET_TEST(test_distributed, DistributedTabTest)
#include "test_distributed.moc"
