// Memory ▸ Allocator Snapshot: a snapshot pickle opens as a document of its
// own and shows the CLI's tables (under the model tester) and the chart; a
// click on the chart shows what was alive after that entry.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

#include "charts/ThemedPlot.h"
#include "common/SpecTableModel.h"
#include "memory/ActiveTimelineChart.h"
#include "memory/SnapshotView.h"
#include "report/SnapshotTables.h"
#include "shell/OpenedDocument.h"
#include "snapshot/AllocatorState.h"
#include "snapshot/SnapshotAnalysis.h"

using namespace ts;
using namespace ts::gui;

namespace {

const QString kSnapshot =
    QStringLiteral(TRAINSCOPE_SOURCE_DIR "/tests/data/memory_snapshots/p5_seed2.pickle");

} // namespace

class SnapshotTest : public QObject {
    Q_OBJECT

private slots:
    void aPickleOpensAsASnapshot() {
        const OpenedDocument doc = openDocument(kSnapshot);
        QVERIFY2(doc.ok(), qPrintable(doc.error));
        QVERIFY(doc.snapshot);
        QVERIFY(!doc.trace);
        QCOMPARE(doc.snapshot->devices(), 2);
        const OpenedDocument bad = openDocument(
            QStringLiteral(TRAINSCOPE_SOURCE_DIR "/tests/data/memory_snapshots/runs_code.pickle"));
        QVERIFY(!bad.ok());
        QVERIFY(bad.error.contains(QStringLiteral("never runs anything")));
    }

    void viewShowsTablesAndTheChart() {
        const OpenedDocument doc = openDocument(kSnapshot);
        SnapshotView view;
        view.resize(1200, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSnapshot(doc.snapshot, doc.path);
        QCOMPARE(view.tableCount(), 5);
        for (int t = 0; t < view.tableCount(); ++t)
            QAbstractItemModelTester tester(view.model(t),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(view.model(SnapshotView::Devices)->rowCount(), 2);
        const std::vector<StackBytes> at_peak =
            aliveAt(*doc.snapshot, 0, summarizeDevice(*doc.snapshot, 0).peak_entry);
        QCOMPARE(view.model(SnapshotView::Alive)->rowCount(), int(at_peak.size()));
        QCOMPARE(view.chart()->graphCount(), 2); // allocated, reserved
        // The Active Memory Timeline: a band under a point low in the plot, at
        // the peak's entry; a click there reports that entry.
        ActiveTimelineChart* bands = view.bands();
        QVERIFY(!bands->timeline().bands.empty());
        const int64_t peak = summarizeDevice(*doc.snapshot, 0).peak_entry;
        int x = 0;
        while (x < bands->width() && bands->entryAt(x) < peak)
            ++x;
        const QPoint low(x, bands->height() - 40);
        QVERIFY(bands->bandAt(low) >= 0);
        QSignalSpy clicked(bands, &ActiveTimelineChart::entryClicked);
        QTest::mouseClick(bands, Qt::LeftButton, {}, low);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(view.aliveEntry(), clicked.at(0).at(0).value<int64_t>());
        // The allocator's state after that entry: its segments.
        QCOMPARE(view.model(SnapshotView::State)->rowCount(),
                 int(allocatorStateAt(*doc.snapshot, 0, view.aliveEntry()).segments.size()));
        // A click in the chart: what was alive after that entry.
        QTest::mouseClick(view.chart(), Qt::LeftButton, {},
                          QPoint(view.chart()->width() / 4, view.chart()->height() / 2));
        QVERIFY(view.aliveEntry() >= 0);
        QCOMPARE(view.model(SnapshotView::Alive)->rowCount(),
                 int(aliveAt(*doc.snapshot, 0, view.aliveEntry()).size()));
        view.setDevice(1);
        QCOMPARE(view.device(), 1);
        QCOMPARE(view.aliveEntry(), int64_t(-1));
        view.clear(QStringLiteral("nothing"));
        for (int t = 0; t < view.tableCount(); ++t)
            QCOMPARE(view.model(t)->rowCount(), 0);
        QCOMPARE(view.messageText(), QStringLiteral("nothing"));
    }
};

QTEST_MAIN(SnapshotTest)
#include "test_snapshot.moc"
