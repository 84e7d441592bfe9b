// The Roofline tab: its model under QAbstractItemModelTester, operators of a
// constructed OpTable placed against entered peaks (position, bound, hover and
// click), the reduced-precision roof, peaks kept in the settings and measured
// on a worker thread, Nsight Compute import, CSV and PNG export.
#include <fstream>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "WidgetTests.h"
#include "analysis/NcuCsv.h"
#include "common/AppSettings.h"
#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "report/RooflineReport.h"
#include "roofline/PeaksPanel.h"
#include "roofline/RooflineChart.h"
#include "roofline/RooflineModel.h"
#include "roofline/RooflineView.h"

using namespace ts;
using namespace ts::gui;

namespace {

int rooflineColumn(const char* key) {
    return rooflineTable({}).columnIndex(key);
}

OpStat op(const std::string& name, double flops, double bytes, int64_t self_ns) {
    OpStat s;
    s.name = name;
    s.calls = 10;
    s.flops = flops;
    s.bytes = bytes;
    s.self_cpu_ns = self_ns;
    s.cpu_total_ns = self_ns;
    return s;
}

// Peaks 100 GFLOP/s and 10 GB/s: the ridge is at 10 FLOP/byte.
MachinePeaks peaks(double low_gflops = 0) {
    MachinePeaks p;
    p.fp32_gflops = 100;
    p.bandwidth_gbs = 10;
    p.low_gflops = low_gflops;
    p.low_precision = low_gflops > 0 ? "bf16" : "";
    p.device = "cpu";
    p.source = "entered";
    return p;
}

// relu: 1 FLOP/byte at 1 GFLOP/s (memory-bound, 10% of its 10 GFLOP/s roof);
// conv: 100 FLOP/byte at 20 GFLOP/s (compute-bound, 20% of 100); no_flops: not placed.
OpTable opTable() {
    OpTable t;
    t.rows = {op("aten::relu_", 1e9, 1e9, 1000000000), op("aten::conv2d", 1e10, 1e8, 500000000),
              op("aten::view", 0, 0, 1000)};
    for (const OpStat& s : t.rows)
        t.total_self_cpu_ns += s.self_cpu_ns;
    return t;
}

int pointNamed(const Roofline& r, const std::string& name) {
    for (size_t i = 0; i < r.points.size(); ++i)
        if (r.points[i].cost.name == name) return int(i);
    return -1;
}

} // namespace

class RooflineTest : public QObject {
    Q_OBJECT
private slots:
    void modelUnderModelTester() {
        RooflineModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Roofline r = buildRoofline(peaks(), costsFromOpTable(opTable(), false));
        model.setRoofline(r);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(rooflineTable({}).columns.size()));
        SortFilterProxy proxy;
        QAbstractItemModelTester proxy_tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.sort(rooflineColumn(roofline_column::kIntensity), Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, rooflineColumn(roofline_column::kName)).data().toString(),
                 QStringLiteral("aten::relu_"));
        proxy.sort(rooflineColumn(roofline_column::kEfficiency), Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, rooflineColumn(roofline_column::kName)).data().toString(),
                 QStringLiteral("aten::conv2d"));
        model.setRoofline(Roofline());
        QCOMPARE(proxy.rowCount(), 0);
    }

    void placesOperatorsAndClassifiesTheBound() {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
        RooflineView view(settings);
        view.resize(1300, 750);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.peaksPanel()->setPeaks(peaks());
        view.setOpTable(opTable(), QStringLiteral("constructed"));

        const Roofline& r = view.roofline();
        QCOMPARE(int(r.points.size()), 2); // aten::view has no FLOPs: not placed
        QVERIFY(!r.notes.empty());
        const int relu = pointNamed(r, "aten::relu_");
        const int conv = pointNamed(r, "aten::conv2d");
        QVERIFY(relu >= 0 && conv >= 0);
        QCOMPARE(r.points[size_t(relu)].bound, Bound::Memory);
        QCOMPARE(r.points[size_t(conv)].bound, Bound::Compute);
        QCOMPARE(
            view.model()->index(relu, rooflineColumn(roofline_column::kBound)).data().toString(),
            QStringLiteral("memory-bound"));
        QCOMPARE(
            view.model()->index(conv, rooflineColumn(roofline_column::kBound)).data().toString(),
            QStringLiteral("compute-bound"));
        QCOMPARE(view.model()
                     ->index(relu, rooflineColumn(roofline_column::kIntensity))
                     .data(SortRole)
                     .toDouble(),
                 1.0);
        QCOMPARE(view.model()
                     ->index(relu, rooflineColumn(roofline_column::kRoof))
                     .data(SortRole)
                     .toDouble(),
                 10.0);
        QCOMPARE(view.model()
                     ->index(relu, rooflineColumn(roofline_column::kEfficiency))
                     .data(SortRole)
                     .toDouble(),
                 0.1);
        QCOMPARE(view.model()
                     ->index(conv, rooflineColumn(roofline_column::kAchieved))
                     .data(SortRole)
                     .toDouble(),
                 20.0);

        RooflineChart* chart = view.chart();
        chart->replot();
        QCOMPARE(chart->pointCount(), 2);
        QCOMPARE(chart->ridgeIntensity(), 10.0);
        const double ridge_x = chart->xAxis->coordToPixel(10.0);
        const QPointF relu_px = chart->pointPixel(relu);
        const QPointF conv_px = chart->pointPixel(conv);
        QVERIFY(relu_px.x() < ridge_x); // memory-bound left of the ridge
        QVERIFY(conv_px.x() > ridge_x);
        QVERIFY(conv_px.y() < relu_px.y()); // higher rate is higher up
        QCOMPARE(chart->pointAt(relu_px), relu);
        QCOMPARE(chart->pointAt(conv_px + QPointF(1, 1)), conv);
        QCOMPARE(
            chart->pointAt(QPointF(chart->axisRect()->left() + 2, chart->axisRect()->top() + 2)),
            -1);
        QVERIFY(chart->pointText(relu).contains(QStringLiteral("memory-bound")));
        QVERIFY(chart->pointText(relu).contains(QStringLiteral("aten::relu_")));
        QVERIFY(chart->pointText(conv).contains(QStringLiteral("compute-bound")));
        // The fp32 roof: the bandwidth slope up to the ridge, flat after it.
        QCPGraph* roof = chart->roofGraph();
        QCOMPARE(roof->dataCount(), 3);
        QCOMPARE(roof->data()->at(1)->key, 10.0);
        QCOMPARE(roof->data()->at(1)->value, 100.0);
        QVERIFY(chart->lowRoofGraph() == nullptr);

        // A click on a dot selects its row in the table.
        QTest::mouseClick(chart, Qt::LeftButton, {}, conv_px.toPoint());
        QCOMPARE(chart->selectedPoint(), conv);
        const QModelIndexList selected = view.table()->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.front().data(RowRole).toInt(), conv);

        // A bf16 run: the convolution goes against the 400 GFLOP/s roof, relu stays fp32.
        view.peaksPanel()->setPeaks(peaks(400));
        view.setLowPrecisionRun(true);
        const int conv_low = pointNamed(view.roofline(), "aten::conv2d");
        QVERIFY(view.roofline().points[size_t(conv_low)].cost.low_precision);
        QCOMPARE(view.model()
                     ->index(conv_low, rooflineColumn(roofline_column::kRoof))
                     .data(SortRole)
                     .toDouble(),
                 400.0);
        QVERIFY(chart->lowRoofGraph() != nullptr);
        view.setLowPrecisionRun(false);
        QCOMPARE(view.model()
                     ->index(pointNamed(view.roofline(), "aten::conv2d"),
                             rooflineColumn(roofline_column::kRoof))
                     .data(SortRole)
                     .toDouble(),
                 100.0);

        // Exports: core's CSV and the chart as PNG.
        QString error;
        const QString csv = dir.filePath(QStringLiteral("roofline.csv"));
        QVERIFY2(view.exportCsv(csv, &error), qPrintable(error));
        std::ifstream in(csv.toStdString());
        const auto records = parseCsvRecords(std::string(std::istreambuf_iterator<char>(in), {}));
        QCOMPARE(int(records.size()), 3);
        QCOMPARE(QString::fromStdString(records[0][0]), QStringLiteral("name"));
        const QString png = dir.filePath(QStringLiteral("roofline.png"));
        QVERIFY(view.exportPng(png, &error));
        QVERIFY(!QImage(png).isNull());
    }

    void withoutPeaksNothingIsPlaced() {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
        RooflineView view(settings);
        view.setOpTable(opTable(), QStringLiteral("constructed"));
        QVERIFY(!view.peaksPanel()->hasPeaks());
        QCOMPARE(view.model()->rowCount(), 0);
        QCOMPARE(view.chart()->pointCount(), 0);
        QVERIFY(view.chart()->message().contains(QStringLiteral("Measure")));
        QString error;
        QVERIFY(!view.exportCsv(dir.filePath(QStringLiteral("x.csv")), &error));
    }

    void peaksAreKeptInTheSettings() {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
        {
            PeaksPanel panel(settings);
            QSignalSpy changed(&panel, &PeaksPanel::peaksChanged);
            panel.setPeaks(peaks(400));
            QCOMPARE(changed.count(), 1);
        }
        QCOMPARE(settings.rooflinePeaks().fp32_gflops, 100.0);
        QCOMPARE(settings.rooflinePeaks().low_gflops, 400.0);
        QCOMPARE(settings.rooflinePeaks().bandwidth_gbs, 10.0);
        PeaksPanel again(settings);
        QVERIFY(again.hasPeaks());
        QCOMPARE(again.peaks().fp32_gflops, 100.0);
        QCOMPARE(again.peaks().ridge(), 10.0);
    }

    void measuresPeaksOnAWorkerThread() {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
        PeaksPanel panel(settings);
        PeakOptions small;
        small.device = "cpu";
        small.matrix_size = 64;
        small.stream_bytes = int64_t(1) << 20;
        small.repeats = 1;
        small.low_precision = false;
        panel.setMeasureOptions(small);
        QSignalSpy busy(&panel, &PeaksPanel::measuringChanged);
        panel.measure();
        QVERIFY(panel.isMeasuring());
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isMeasuring(), 120000);
        QCOMPARE(busy.count(), 2);
        QVERIFY(panel.peaks().fp32_gflops > 0);
        QVERIFY(panel.peaks().bandwidth_gbs > 0);
        QCOMPARE(panel.peaks().source, std::string("measured"));
        QVERIFY(settings.rooflinePeaks().fp32_gflops > 0);
    }

    void importsAnNsightComputeExport() {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
        RooflineView view(settings);
        view.peaksPanel()->setPeaks(peaks());
        const QString path = dir.filePath(QStringLiteral("kernels.csv"));
        std::ofstream(path.toStdString())
            << "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
               "\"sm__sass_thread_inst_executed_op_fadd_pred_on.sum\","
               "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\","
               "\"sm__sass_thread_inst_executed_op_fmul_pred_on.sum\"\n"
               "\"\",\"\",\"byte\",\"nsecond\",\"inst\",\"inst\",\"inst\"\n"
               "\"0\",\"add_kernel\",\"8000000\",\"1000000\",\"1000000\",\"0\",\"0\"\n"
               "\"1\",\"sgemm\",\"1000000\",\"1000000\",\"0\",\"50000000\",\"0\"\n";
        QString error;
        QVERIFY2(view.importNcu(path, &error), qPrintable(error));
        QCOMPARE(view.model()->rowCount(), 2);
        const int add = pointNamed(view.roofline(), "add_kernel");
        const int gemm = pointNamed(view.roofline(), "sgemm");
        QCOMPARE(view.roofline().points[size_t(add)].bound, Bound::Memory);
        QCOMPARE(view.roofline().points[size_t(gemm)].bound, Bound::Compute);
        QVERIFY(!view.importNcu(dir.filePath(QStringLiteral("missing.csv")), &error));
        QVERIFY(error.contains(QStringLiteral("missing.csv")));
    }
};

TRAINSCOPE_WIDGET_TEST(test_roofline, RooflineTest)
#include "test_roofline.moc"
