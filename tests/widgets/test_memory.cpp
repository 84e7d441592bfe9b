// The Memory tab on the TensorBoard plugin's memory fixtures
// (tests/data/tb_plugin/test_memory_view.json, test_memory_curve.json) and on
// Trainscope's own memory samples: both item models under
// QAbstractItemModelTester, the tables equal to the analysis the CLI prints
// (tests/torchfree/MemoryViewTest.cpp checks that against the plugin's
// numbers), the device choice, a time range chosen by dragging across the
// chart, the filter, the CSV export and the empty states.
#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

#include "ModelCells.h"
#include "TestPaths.h"
#include "WidgetTests.h"
#include "analysis/GpuTraceAnalysis.h"
#include "analysis/MemoryView.h"
#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "memory/MemoryCurveChart.h"
#include "memory/MemoryTableModels.h"
#include "memory/MemoryUsageView.h"
#include "report/MemoryTables.h"
#include "trace/ChromeTraceReader.h"

using namespace ts;
using namespace ts::gui;
using testing::column;

namespace {

std::shared_ptr<const Trace> readFixture(const char* name) {
    return std::make_shared<const Trace>(readChromeTraceFile(
        std::string(TRAINSCOPE_SOURCE_DIR) + "/tests/data/tb_plugin/" + name + ".json"));
}

const DeviceMemoryView& deviceOf(const MemoryView& view, const std::string& name) {
    for (const DeviceMemoryView& d : view.devices)
        if (d.name == name) return d;
    throw std::runtime_error("no device " + name);
}

// A trace of Trainscope's own: an operator and CPU samples without addresses.
std::shared_ptr<const Trace> ownSamplesTrace() {
    Trace t;
    t.source = "trainscope";
    const int32_t lane = t.laneFor(1, false, "main");
    TraceEvent op;
    op.name = t.internName("aten::conv2d");
    op.lane = lane;
    op.start_ns = 1000;
    op.dur_ns = 5000;
    t.events.push_back(op);
    t.memory.push_back(MemorySample{2000, 4096, 4096, 0});
    t.memory.push_back(MemorySample{3000, 6144, 2048, 0});
    t.finalize();
    return std::make_shared<const Trace>(std::move(t));
}

} // namespace

class MemoryTabTest : public QObject {
    Q_OBJECT
private slots:
    void modelsPassTheModelTester() {
        MemoryAllocationModel allocations;
        MemoryOperatorModel operators;
        QAbstractItemModelTester a(&allocations,
                                   QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester o(&operators,
                                   QAbstractItemModelTester::FailureReportingMode::QtTest);
        const MemoryView view = computeMemoryView(*readFixture("test_memory_view"));
        allocations.setRows(deviceOf(view, "GPU0").allocations);
        operators.setRows(deviceOf(view, "GPU0").operators);
        QVERIFY(allocations.rowCount() > 0);
        QVERIFY(operators.rowCount() > 0);
        QCOMPARE(allocations.columnCount(), int(memoryAllocationTable({}).columns.size()));
        QCOMPARE(operators.columnCount(), int(memoryOperatorTable({}).columns.size()));
        allocations.clear();
        operators.clear();
    }

    void tablesShowTheAnalysisOfTheFirstGpu() {
        const auto trace = readFixture("test_memory_view");
        const MemoryView expected = computeMemoryView(*trace);
        MemoryUsageView view;
        view.setTrace(trace, nullptr, nullptr, QStringLiteral("fixture"));
        QVERIFY(view.messageText().isEmpty());
        QCOMPARE(view.deviceCount(), int(expected.devices.size()));
        QCOMPARE(view.currentDevice(), QStringLiteral("GPU0")); // the plugin's default device
        const DeviceMemoryView& gpu = deviceOf(expected, "GPU0");
        QCOMPARE(view.operatorModel()->rowCount(), int(gpu.operators.size()));
        QCOMPARE(view.allocationModel()->rowCount(), int(gpu.allocations.size()));
        QCOMPARE(view.operatorModel()->rowAt(0).name, gpu.operators[0].name);
        QCOMPARE(view.operatorModel()->rowAt(0).size_increase, gpu.operators[0].size_increase);
        // Sizes show in binary units and sort as bytes.
        const QModelIndex size =
            view.allocationModel()->index(0, view.allocationModel()->column(memory_column::kBytes));
        QCOMPARE(size.data(SortRole).toLongLong(), gpu.allocations[0].bytes);
        QVERIFY(size.data().toString().endsWith(QStringLiteral("B")));
        // The plugin's fixture has no totals on GPU0's records: no curve, and the chart says so.
        QCOMPARE(view.chart()->pointsDrawn() > 0, !gpu.curve.empty());

        QVERIFY(view.selectDevice(QStringLiteral("CPU")));
        QCOMPARE(view.operatorModel()->rowCount(), int(deviceOf(expected, "CPU").operators.size()));
        QVERIFY(!view.selectDevice(QStringLiteral("GPU7")));
        QCOMPARE(view.currentDevice(), QStringLiteral("CPU"));
    }

    void aRangeNarrowsTheTablesAsTheAnalysisDoes() {
        const auto trace = readFixture("test_memory_view");
        MemoryUsageView view;
        view.setTrace(trace, nullptr, nullptr, QString());
        const int whole_allocations = view.allocationModel()->rowCount();
        MemoryTimeRange range;
        range.start_ns = 690000;
        range.end_ns = 789000;
        view.setRange(range);
        const DeviceMemoryView& expected =
            deviceOf(computeMemoryView(*trace, range), view.currentDevice().toStdString());
        QCOMPARE(view.allocationModel()->rowCount(), int(expected.allocations.size()));
        QCOMPARE(view.operatorModel()->rowCount(), int(expected.operators.size()));
        QVERIFY(view.allocationModel()->rowCount() < whole_allocations);
        QVERIFY(view.rangeText().startsWith(QStringLiteral("0.690 – 0.789 ms")));
        QVERIFY(view.chart()->selection().has_value());
        view.setRange(std::nullopt);
        QCOMPARE(view.allocationModel()->rowCount(), whole_allocations);
        QVERIFY(!view.chart()->selection().has_value());
        QVERIFY(view.rangeText().startsWith(QStringLiteral("Whole trace")));
    }

    void draggingAcrossTheCurveSelectsARange() {
        const auto trace = readFixture("test_memory_curve");
        MemoryUsageView view;
        view.resize(1000, 700);
        view.setTrace(trace, nullptr, nullptr, QString());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        MemoryCurveChart* chart = view.chart();
        QVERIFY(chart->pointsDrawn() > 0);
        QVERIFY(chart->hasReserved());
        QVERIFY(chart->peakLabel().startsWith(QStringLiteral("Peak 7.81 KiB")));
        chart->replot();
        const QRect area = chart->axisRect()->rect();
        const int y = area.center().y();
        const int from = int(chart->xAxis->coordToPixel(0.2)),
                  to = int(chart->xAxis->coordToPixel(0.6));
        QTest::mousePress(chart, Qt::LeftButton, {}, QPoint(from, y));
        QMouseEvent move(QEvent::MouseMove, QPointF(to, y), chart->mapToGlobal(QPointF(to, y)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(chart, &move);
        QTest::mouseRelease(chart, Qt::LeftButton, {}, QPoint(to, y));
        QVERIFY(view.range().has_value());
        // Within a pixel of the pressed times.
        const double ns_per_px = 1e6 * (chart->xAxis->range().size()) / area.width();
        QVERIFY(std::abs(view.range()->start_ns - 200000) <= ns_per_px);
        QVERIFY(std::abs(view.range()->end_ns - 600000) <= ns_per_px);
        QVERIFY(!chart->describeAt(300000).isEmpty());
        QTest::mouseDClick(chart, Qt::LeftButton, {}, QPoint(from, y));
        QVERIFY(!view.range().has_value());
    }

    void filterAndExport() {
        MemoryUsageView view;
        view.setTrace(readFixture("test_memory_view"), nullptr, nullptr, QString());
        view.setNameFilter(QStringLiteral("aten::t"));
        const QStringList names =
            column(*view.operatorProxy(), view.operatorModel()->column(memory_column::kOperator));
        QVERIFY(!names.isEmpty());
        for (const QString& n : names)
            QVERIFY2(n.contains(QStringLiteral("aten::t")), qPrintable(n));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ops.csv"));
        QString error;
        QVERIFY2(view.exportCsv(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), names.size() + 1);
        QVERIFY(lines[0].startsWith(QStringLiteral("Operator,Calls,Size Increase")));
        view.showTable(MemoryUsageView::Allocations);
        QVERIFY(view.exportCsv(path, &error));
    }

    void ownSamplesAndEmptyStates() {
        MemoryUsageView view;
        view.setTrace(ownSamplesTrace(), nullptr, nullptr, QString());
        QCOMPARE(view.currentDevice(), QStringLiteral("CPU"));
        QVERIFY(view.noteText().contains(QStringLiteral("no addresses")));
        QCOMPARE(view.chart()->pointsDrawn() >= 2, true);
        QVERIFY(!view.chart()->hasReserved());
        QCOMPARE(view.allocationModel()->rowCount(), 2); // both are allocations, never released

        Trace plain;
        plain.source = "trainscope";
        TraceEvent e;
        e.name = plain.internName("aten::relu");
        e.lane = plain.laneFor(1, false, "main");
        e.dur_ns = 10;
        plain.events.push_back(e);
        plain.finalize();
        view.setTrace(std::make_shared<const Trace>(std::move(plain)), nullptr, nullptr, QString());
        QVERIFY(view.messageText().contains(QStringLiteral("profile_memory=True")));
        QCOMPARE(view.deviceCount(), 0);
        view.clear();
        QVERIFY(view.messageText().startsWith(QStringLiteral("No trace yet")));
    }
};

TRAINSCOPE_WIDGET_TEST(test_memory, MemoryTabTest)
#include "test_memory.moc"
