// Memory ▸ Allocator Snapshot: a snapshot pickle opens as a document of its
// own and shows the CLI's tables (under the model tester) and the chart; a
// click on the chart shows what was alive after that entry.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include "GuiFixture.h"
#include "TestPaths.h"
#include "WidgetTests.h"
#include "charts/ThemedPlot.h"
#include "common/SpecTableModel.h"
#include "memory/ActiveTimelineChart.h"
#include "memory/CategoryTimelineView.h"
#include "memory/FlameGraphChart.h"
#include "memory/SegmentMapChart.h"
#include "memory/SnapshotView.h"
#include "report/SnapshotTables.h"
#include "shell/OpenedDocument.h"
#include "snapshot/AllocatorState.h"
#include "snapshot/SnapshotAnalysis.h"
#include "snapshot/SnapshotFilter.h"
#include "snapshot/SnapshotReader.h"

using namespace ts;
using namespace ts::gui;
using testing::dataFile;

namespace {

const QString kSnapshot = dataFile("memory_snapshots/p5_seed2.pickle");

// The view on screen with the document: false if no window came.
bool shown(SnapshotView& view, const OpenedDocument& doc) {
    view.resize(1200, 900);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view)) return false;
    view.setSnapshot(doc.snapshot, QString::fromStdString(doc.path));
    return true;
}

} // namespace

class SnapshotTest : public QObject {
    Q_OBJECT

private slots:
    void aPickleOpensAsASnapshot() {
        const OpenedDocument doc = openDocument(kSnapshot);
        QVERIFY2(doc.ok(), doc.error.c_str());
        QVERIFY(doc.snapshot);
        QVERIFY(!doc.trace);
        QCOMPARE(doc.snapshot->devices(), 2);
        const OpenedDocument bad = openDocument(dataFile("memory_snapshots/runs_code.pickle"));
        QVERIFY(!bad.ok());
        QVERIFY(QString::fromStdString(bad.error).contains(QStringLiteral("never runs anything")));
    }

    void viewShowsTablesAndTheChart() {
        const OpenedDocument doc = openDocument(kSnapshot);
        SnapshotView view;
        QVERIFY(shown(view, doc));
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

    // The moment's views: the flame graph of what was alive (its top row is
    // all of it; a click zooms into a frame, a right click out) and the
    // allocator's segments (a block under the first row's start).
    void flameGraphAndSegmentsShowTheMoment() {
        const OpenedDocument doc = openDocument(kSnapshot);
        SnapshotView view;
        QVERIFY(shown(view, doc));
        const DeviceMemorySummary d = summarizeDevice(*doc.snapshot, 0);
        QCOMPARE(view.shownEntry(), d.peak_entry);
        view.charts()->setCurrentWidget(view.charts()->widget(2));
        FlameGraphChart* flame = view.flame();
        QTRY_VERIFY(flame->isVisible());
        QCOMPARE(flame->flame().total(), d.peak_allocated_bytes);
        const QRect root = flame->nodeRect(0);
        QVERIFY(!root.isEmpty());
        QCOMPARE(flame->nodeAt(root.center()), 0);
        const QRect first = flame->nodeRect(1); // the widest outermost frame
        QVERIFY(!first.isEmpty());
        QTest::mouseClick(flame, Qt::LeftButton, {}, first.center());
        QCOMPARE(flame->zoomed(), 1);
        QCOMPARE(flame->nodeRect(1).width(), root.width()); // full width now
        QTest::mouseClick(flame, Qt::RightButton, {}, first.center());
        QCOMPARE(flame->zoomed(), 0);
        view.charts()->setCurrentWidget(view.segments());
        SegmentMapChart* map = view.segments();
        QTRY_VERIFY(map->isVisible());
        const AllocatorState st = allocatorStateAt(*doc.snapshot, 0, d.peak_entry);
        QCOMPARE(map->state().reserved_bytes, st.reserved_bytes);
        QVERIFY(!st.segments.empty());
        // The map's first segment starts at the plot's top left; what is there
        // is a block or free space of that segment, in words.
        const QString there = map->describeAt(map->pointOf(0) + QPoint(1, 4));
        QVERIFY2(there.contains(QString::number(st.segments[0].address, 16)), qPrintable(there));
        // A click on the timeline moves both to that entry.
        view.showAliveAt(d.peak_entry / 2);
        QCOMPARE(map->state().entry, d.peak_entry / 2);
        QCOMPARE(flame->flame().total(), [&] {
            int64_t sum = 0;
            for (const StackBytes& b : aliveAt(*doc.snapshot, 0, d.peak_entry / 2))
                sum += b.bytes;
            return sum;
        }());
    }

    // The filter narrows the timeline, the peak and the alive table; a bad
    // value is said and changes nothing; a drag on the timeline zooms.
    void theFilterNarrowsEveryView() {
        const OpenedDocument doc = openDocument(kSnapshot);
        SnapshotView view;
        QVERIFY(shown(view, doc));
        const int all_rows = view.model(SnapshotView::Alive)->rowCount();
        view.setFilterText({"4MiB", "", ""});
        QVERIFY(view.filterError().isEmpty());
        QCOMPARE(view.filter().min_bytes, int64_t(4) << 20);
        for (const ActiveBand& b : view.bands()->timeline().bands)
            QVERIFY(b.size >= (int64_t(4) << 20));
        const FilteredAllocations f = filterAllocations(*doc.snapshot, 0, view.filter());
        QCOMPARE(view.shownEntry(), f.peak_entry);
        QCOMPARE(view.flame()->flame().total(), f.peak_bytes);
        QVERIFY(view.model(SnapshotView::Alive)->rowCount() < all_rows);
        QAbstractItemModelTester tester(view.model(SnapshotView::Alive),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setFilterText({"lots", "", ""});
        QVERIFY(view.filterError().contains(QStringLiteral("Min size is 'lots'")));
        QCOMPARE(view.filter().min_bytes, int64_t(4) << 20); // unchanged
        view.setFilterText({"4MiB", "", ""});
        // Drag across the middle half of the timeline: its entries become the range.
        ActiveTimelineChart* bands = view.bands();
        const int y = bands->height() / 2;
        const int x0 = bands->width() / 4, x1 = bands->width() * 3 / 4;
        const int64_t first = bands->entryAt(x0), last = bands->entryAt(x1);
        QSignalSpy zoomed(bands, &ActiveTimelineChart::rangeSelected);
        QTest::mousePress(bands, Qt::LeftButton, {}, QPoint(x0, y));
        QMouseEvent move(QEvent::MouseMove, QPointF(x1, y), bands->mapToGlobal(QPointF(x1, y)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(bands, &move);
        QTest::mouseRelease(bands, Qt::LeftButton, {}, QPoint(x1, y));
        QCOMPARE(zoomed.count(), 1);
        QCOMPARE(view.filter().first_entry, first);
        QCOMPARE(view.filter().last_entry, last);
        QCOMPARE(bands->timeline().first, first);
        QVERIFY(view.shownEntry() >= first && view.shownEntry() <= last);
        view.setFilterText({});
        QVERIFY(view.filter().empty());
        QCOMPARE(view.model(SnapshotView::Alive)->rowCount(), all_rows);
    }

    // Grouped by size, the alive table has a size column; an OOM row
    // activated shows that moment on its device.
    void groupingsAndOoms() {
        const OpenedDocument doc = openDocument(kSnapshot);
        SnapshotView view;
        QVERIFY(shown(view, doc));
        view.setGrouping(AliveGrouping::Size);
        QCOMPARE(view.model(SnapshotView::Alive)
                     ->headerData(3, Qt::Horizontal, Qt::DisplayRole)
                     .toString(),
                 QStringLiteral("Size"));
        QAbstractItemModelTester tester(view.model(SnapshotView::Alive),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const table::TableSpec ooms = snapshotOomTable(*doc.snapshot);
        QVERIFY(ooms.rows.size() >= 2);
        const size_t last = ooms.rows.size() - 1; // device 1's (the table is by device)
        emit view.rowActivated(SnapshotView::Ooms, int(last));
        QCOMPARE(view.device(), int(ooms.rows[last][0].value));
        QCOMPARE(view.shownEntry(), int64_t(ooms.rows[last][1].value));
        QCOMPARE(view.segments()->state().entry, int64_t(ooms.rows[last][1].value));
    }

    // export_memory_timeline's file opens as a document of its own: the
    // categories stacked over time (the top layer is their total), the peak
    // (HTA's test point sizes[744] is where they add up to most) and, after a
    // click on the chart, that moment.
    void aMemoryTimelineOpensByCategory() {
        const OpenedDocument doc = openDocument(dataFile("hta/memory_timeline.raw.gz"));
        QVERIFY2(doc.ok(), doc.error.c_str());
        QVERIFY(doc.categories);
        QVERIFY(!doc.trace && !doc.snapshot);
        CategoryTimelineView view;
        view.resize(1200, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setTimeline(doc.categories, QString::fromStdString(doc.path));
        QCOMPARE(view.tableCount(), 3);
        for (int t = 0; t < view.tableCount(); ++t)
            QAbstractItemModelTester tester(view.model(t),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(view.model(CategoryTimelineView::Peak)->rowCount(), int(kMemoryCategories));
        QCOMPARE(view.layers().size(), kMemoryCategories);
        const CategoryPeak peak = categoryPeak(*doc.categories);
        QCOMPARE(view.shownPoint(), peak.index);
        double top = 0;
        for (auto it = view.layers().back()->data()->begin();
             it != view.layers().back()->data()->end(); ++it)
            top = std::max(top, it->value);
        QCOMPARE(top, double(peak.total_bytes) / double(1ull << 30));
        QTest::mouseClick(view.chart(), Qt::LeftButton, {},
                          QPoint(view.chart()->width() / 5, view.chart()->height() / 2));
        QVERIFY(view.shownPoint() != peak.index);
        QVERIFY(view.model(CategoryTimelineView::Then)->rowCount() == int(kMemoryCategories));
    }

    // Compare with a second snapshot: memory-diff's tables follow the others.
    void aSecondSnapshotIsCompared() {
        const OpenedDocument doc = openDocument(kSnapshot);
        SnapshotView view;
        view.setSnapshot(doc.snapshot, QString::fromStdString(doc.path));
        QSignalSpy loaded(&view, &SnapshotView::comparisonLoaded);
        view.compareWith(dataFile("memory_snapshots/p4_seed3.pickle"));
        QTRY_COMPARE(loaded.count(), 1);
        QVERIFY(view.comparing());
        QCOMPARE(view.tableCount(), 7);
        const MemorySnapshot b =
            readMemorySnapshot(dataFile("memory_snapshots/p4_seed3.pickle").toStdString());
        const auto diff = snapshotDiffTables(*doc.snapshot, b);
        QCOMPARE(view.model(SnapshotView::DiffStacks)->rowCount(), int(diff[1].rows.size()));
        for (int t : {SnapshotView::DiffDevices, SnapshotView::DiffStacks})
            QAbstractItemModelTester tester(view.model(t),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.compareWith(dataFile("memory_snapshots/runs_code.pickle"));
        QTRY_COMPARE(loaded.count(), 2);
        QVERIFY(view.filterError().contains(QStringLiteral("never runs anything")));
    }
};

TRAINSCOPE_WIDGET_TEST(test_snapshot, SnapshotTest)
#include "test_snapshot.moc"
