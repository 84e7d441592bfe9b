// The Overview, Kernels and Operators tabs on the TensorBoard plugin's
// fixtures (tests/data/tb_plugin): the item models under
// QAbstractItemModelTester, the plugin's numbers
// (tests/torchfree/TbPluginConformanceTest.cpp checks the analysis against
// expected.json; here the same figures reach the views), grouping,
// filtering, call stacks, CSV export and the empty states.
#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "LegendChecks.h"
#include "ModelCells.h"
#include "SyntheticTrace.h"
#include "TestPaths.h"
#include "WidgetTests.h"
#include "analysis/GpuTraceAnalysis.h"
#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "gpu/AverageShareChart.h"
#include "gpu/GpuTableModels.h"
#include "gpu/KernelsView.h"
#include "gpu/OverviewView.h"
#include "gpu/StepBreakdownChart.h"
#include "operators/DeviceOpTableModel.h"
#include "operators/OpTableModel.h"
#include "operators/OperatorsView.h"
#include "operators/TopOpsChart.h"
#include "report/GpuTables.h"
#include "report/OpTables.h"
#include "report/StepTables.h"
#include "trace/ChromeTraceReader.h"
#include "trace/ChromeTraceWriter.h"

using namespace ts;
using namespace ts::gui;
using testing::sortValue;

namespace {

std::shared_ptr<const GpuTraceAnalysis> analyzeFixture(const char* name) {
    const Trace trace = readChromeTraceFile(std::string(TRAINSCOPE_SOURCE_DIR) +
                                            "/tests/data/tb_plugin/" + name + ".json");
    return std::make_shared<const GpuTraceAnalysis>(analyzeGpuTrace(trace));
}

// `relative` to tests/data.
std::shared_ptr<const Trace> readTrace(const char* relative) {
    return std::make_shared<const Trace>(
        readChromeTraceFile(std::string(TRAINSCOPE_SOURCE_DIR) + "/tests/data/" + relative));
}

// A column of the Kineto operator table and of Trainscope's.
int dop(const char* key) {
    return deviceOpTableSpec(DeviceOpTable{}).columnIndex(key);
}
int opc(const char* key) {
    return opTableSpec(OpTable{}).columnIndex(key);
}

// A column of the average step's table.
int avg(const char* key) {
    return averageStepTable({}, {}).columnIndex(key);
}

QString shown(const QAbstractItemModel& model, int row, int column) {
    return model.index(row, column).data().toString();
}

// The row of the proxy whose name is `name` (-1 if none).
int rowNamed(const QAbstractItemModel& model, const QString& name) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (shown(model, row, 0) == name) return row;
    return -1;
}

} // namespace

class GpuTraceViewsTest : public QObject {
    Q_OBJECT
private slots:
    // test_gpu_utilization: one step of 120 us, Kernel 60, Runtime 4, CPU Exec 56 (expected.json).
    void overviewShowsThePluginsStepBreakdown() {
        const auto analysis = analyzeFixture("test_gpu_utilization");
        OverviewView view;
        view.setContent(overviewOfTrace(*analysis));
        const OverviewContent& c = view.content();
        QCOMPARE(c.categories,
                 (QStringList{QStringLiteral("Kernel"), QStringLiteral("Memcpy"),
                              QStringLiteral("Memset"), QStringLiteral("Communication"),
                              QStringLiteral("Runtime"), QStringLiteral("DataLoader"),
                              QStringLiteral("CPU Exec"), QStringLiteral("Other")}));
        QCOMPARE(c.steps.size(), size_t(1));
        const std::vector<double> expected = {60, 0, 0, 0, 4, 0, 56, 0};
        for (size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(c.steps[0].us[i], expected[i]);
        QVERIFY(view.messageText().isEmpty());

        AverageStepModel* model = view.averageModel();
        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(), 8);
        QCOMPARE(shown(*model, 0, avg(step_column::kCategory)), QStringLiteral("Kernel"));
        QCOMPARE(sortValue(*model, 0, avg(step_column::kTimeUs)), 60.0);
        QCOMPARE(sortValue(*model, 0, avg(step_column::kPercent)), 50.0);
        QCOMPARE(sortValue(*model, 6, avg(step_column::kTimeUs)), 56.0);

        QCOMPARE(view.chart()->stepCount(), 1);
        QVERIFY(view.chart()->describeAt(0, 30).startsWith(QStringLiteral("Kernel: 60.0 us")));
        QVERIFY(view.chart()->describeAt(0, 30).contains(QStringLiteral("50.0 %")));
        QVERIFY(view.chart()->describeAt(0, 62).startsWith(QStringLiteral("Runtime")));
        QVERIFY(view.chart()->describeAt(0, 500).isEmpty());
        QCOMPARE(view.shareChart()->segmentCount(), 8);
        QCOMPARE(view.shareChart()->describeAt(25), QStringLiteral("Kernel: 60.0 us (50.0 %)"));
        QVERIFY(view.shareChart()->describeAt(60).startsWith(QStringLiteral("CPU Exec")));

        // GPU 1 of the fixture: utilization 50 %, SM efficiency 41/120.
        QVERIFY(view.gpuText().contains(QStringLiteral("GPU 1")));
        QVERIFY(view.gpuText().contains(QStringLiteral("50.00 %")));
        QVERIFY(view.gpuText().contains(QStringLiteral("34.17 %")));
    }

    // Each legend entry of the average-step bar gets its whole text: fewer
    // columns on a narrow chart rather than clipped entries.
    void averageShareLegendFitsItsWidth() {
        OverviewContent content;
        content.categories = {QStringLiteral("Kernel"),   QStringLiteral("Memcpy"),
                              QStringLiteral("Memset"),   QStringLiteral("Communication"),
                              QStringLiteral("Runtime"),  QStringLiteral("DataLoader"),
                              QStringLiteral("CPU Exec"), QStringLiteral("Other")};
        content.average_us = {105160, 637.5, 14, 168493.5, 3044, 0, 329971.5, 7799.5};
        AverageShareChart chart;
        chart.setContent(content);
        chart.show(); // a hidden widget gets its resize events only when shown
        for (const int width : {1200, 530, 250}) {
            chart.resize(width, 240);
            chart.replot();
            QVERIFY(chart.legendColumns() >= 1 && chart.legendColumns() <= 4);
            int entries = 0;
            const QString clipped = testing::clippedLegendEntries(chart, &entries);
            QVERIFY2(clipped.isEmpty(),
                     qPrintable(QStringLiteral("at %1 px: %2").arg(width).arg(clipped)));
            QCOMPARE(entries, 8);
        }
        chart.resize(1200, 240);
        QCOMPARE(chart.legendColumns(), 4);
        chart.resize(250, 240);
        QVERIFY(chart.legendColumns() < 4);
    }

    void overviewListsTheRecommendations() {
        const auto analysis = analyzeFixture("test_gpu_utilization");
        OverviewView view;
        view.setContent(overviewOfTrace(*analysis));
        for (const TraceRecommendation& r : analysis->recommendations)
            QVERIFY(view.recommendationsText().contains(
                QString::fromStdString(r.text).toHtmlEscaped()));
    }

    void overviewOfARunShowsItsPhases() {
        RunRecord run;
        for (int i = 0; i < 3; ++i) {
            StepRecord s;
            s.global_step = i;
            s.phases = {1.0, 0.5, 2.0, 4.0, 0.5, 0.0};
            run.steps.push_back(s);
        }
        OverviewView view;
        view.setContent(overviewOfRun(run));
        QCOMPARE(int(view.content().categories.size()), 6);
        QCOMPARE(view.content().steps.size(), size_t(3));
        QCOMPARE(sortValue(*view.averageModel(), 3, avg(step_column::kTimeUs)), 4000.0);
        QCOMPARE(sortValue(*view.averageModel(), 3, avg(step_column::kPercent)), 50.0);
        QVERIFY(view.messageText().isEmpty());

        view.setContent(overviewOfRun(RunRecord{}));
        QVERIFY(!view.messageText().isEmpty());
        view.clear();
        QVERIFY(!view.messageText().isEmpty());
    }

    // A trace of thousands of steps: every bar drawn, labels thinned to a
    // readable stride (a 1 GB trace has 16,456 steps).
    void stepChartThinsItsLabels() {
        OverviewContent content;
        content.categories = {QStringLiteral("Kernel")};
        for (int i = 0; i < 16456; ++i)
            content.steps.push_back(OverviewStep{QString::number(i), {1.0}});
        StepBreakdownChart chart;
        chart.setContent(content);
        auto ticker = chart.xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QVERIFY(ticker->ticks().size() <= 30);
        QCOMPARE(ticker->ticks().value(1000.0), QStringLiteral("1000")); // stride 1000
        QCOMPARE(chart.graphCount() + chart.plottableCount(), 1);
        content.steps.resize(12);
        chart.setContent(content);
        ticker = chart.xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QCOMPARE(ticker->ticks().size(), 12); // few steps: each labelled
    }

    void overviewOfACpuTraceKeepsTheCpuCategories() {
        const auto analysis = analyzeFixture("test_pure_cpu");
        const OverviewContent c = overviewOfTrace(*analysis);
        if (c.empty()) {
            QVERIFY(!c.empty_message.isEmpty());
            return;
        }
        QCOMPARE(c.categories, (QStringList{QStringLiteral("DataLoader"),
                                            QStringLiteral("CPU Exec"), QStringLiteral("Other")}));
    }

    // kernel_stat of test_gpu_utilization in expected.json.
    void kernelsTableMatchesThePlugin() {
        KernelsView view;
        QAbstractItemModelTester by_name(view.byNameModel(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester by_op(view.byOpModel(),
                                       QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setAnalysis(analyzeFixture("test_gpu_utilization"), QStringLiteral("fixture"));
        QVERIFY(view.messageText().isEmpty());
        const QAbstractItemModel& m = *view.proxy(); // sorted by total, descending
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(shown(m, 0, kernelColumn("Name")),
                 QStringLiteral("void cunn_ClassNLLCriterion_updateGradInput_kernel<float>"));
        QCOMPARE(shown(m, 0, kernelColumn("Tensor Cores Used")), QStringLiteral("No"));
        QCOMPARE(sortValue(m, 0, kernelColumn("Calls")), 3.0);
        QCOMPARE(sortValue(m, 0, kernelColumn("Total (us)")), 55.0);
        QVERIFY(qAbs(sortValue(m, 0, kernelColumn("Mean (us)")) - 18.333333) < 1e-5);
        QCOMPARE(sortValue(m, 0, kernelColumn("Max (us)")), 25.0);
        QCOMPARE(sortValue(m, 0, kernelColumn("Min (us)")), 10.0);
        QVERIFY(qAbs(sortValue(m, 0, kernelColumn("Mean Blocks Per SM")) - 4.045455) < 1e-5);
        QVERIFY(qAbs(sortValue(m, 0, kernelColumn("Mean Est. Achieved Occupancy (%)")) - 0.672727) <
                1e-5);
        QCOMPARE(shown(m, 1, kernelColumn("Name")), QStringLiteral("void gemmSN_TN_kernel_64addr"));
        QCOMPARE(sortValue(m, 1, kernelColumn("Total (us)")), 15.0);
        // The GUI's style for microseconds (as the Operators tab), the CLI's "55" and "18.3".
        QCOMPARE(shown(m, 0, kernelColumn("Total (us)")), QStringLiteral("55.00"));
        QCOMPARE(shown(m, 0, kernelColumn("Mean (us)")), QStringLiteral("18.33"));
        QCOMPARE(view.chart()->barCount(), 2);

        view.setNameFilter(QStringLiteral("gemm"));
        QCOMPARE(m.rowCount(), 1);
        view.setNameFilter(QString());

        view.setGroupByOperator(true);
        // The plugin's (and the CLI's) columns: name, operator, launch
        // configuration, Tensor Cores used and eligible, then the times.
        QCOMPARE(m.columnCount(), 15);
        QCOMPARE(m.headerData(5, Qt::Horizontal).toString(), QStringLiteral("Shared Memory"));
        QCOMPARE(m.rowCount(), view.byOpModel()->rowCount());
        QVERIFY(m.rowCount() > 0);

        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("kernels.csv"));
        QString error;
        QVERIFY2(view.exportCsv(csv, &error), qPrintable(error));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().startsWith("Name,"));
    }

    void kernelsEmptyStates() {
        KernelsView view;
        QVERIFY(!view.messageText().isEmpty());
        view.setAnalysis(analyzeFixture("test_pure_cpu"), QStringLiteral("cpu"));
        QVERIFY(!view.messageText().isEmpty());
        QVERIFY(!view.messageText().contains(QStringLiteral("records no kernels")));
        QCOMPARE(view.proxy()->rowCount(), 0);
    }

    // Trainscope's own trace of a CUDA run: operators timed on the GPU, no
    // kernels. The Overview and the Kernels tab say why they show no GPU time.
    void ownTraceOfACudaRunSaysWhyItHasNoKernels() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cuda_run.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        // Plain literals: moc misreads raw strings holding quotes and braces.
        file.write("{\"traceEvents\": [{\"name\": \"ProfilerStep#1\", \"ph\": \"X\", "
                   "\"cat\": \"user_annotation\", \"ts\": 0, \"dur\": 1000, \"pid\": 1, "
                   "\"tid\": 1}, {\"name\": \"aten::conv2d\", \"ph\": \"X\", \"cat\": "
                   "\"cpu_op\", \"ts\": 10, \"dur\": 400, \"pid\": 1, \"tid\": 1, "
                   "\"args\": {\"device_ns\": 350000}}]}");
        file.close();
        const auto analysis = std::make_shared<const GpuTraceAnalysis>(
            analyzeGpuTrace(readChromeTraceFile(path.toStdString())));
        QVERIFY(analysis->device_time_without_kernels);
        const OverviewContent c = overviewOfTrace(*analysis);
        QVERIFY2(c.source.contains(QStringLiteral("records no kernels")), qPrintable(c.source));
        KernelsView view;
        view.setAnalysis(analysis, QStringLiteral("own"));
        QVERIFY2(view.messageText().contains(QStringLiteral("records no kernels")),
                 qPrintable(view.messageText()));
        QVERIFY(!analyzeFixture("test_gpu_utilization")->device_time_without_kernels);
    }

    // test_tensor_core in expected.json (ops_by_name) and `trace-stats --view
    // operators`: device self 15, 10 and 0 us, so sorted by device self time.
    void kinetoOperatorsShowThePluginsRows() {
        OperatorsView view;
        QAbstractItemModelTester tester(view.deviceModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setTrace(readTrace("tb_plugin/test_tensor_core.json"), QStringLiteral("fixture"));
        QVERIFY(view.showsDeviceOps());
        QCOMPARE(view.proxy()->sourceModel(), static_cast<QAbstractItemModel*>(view.deviceModel()));
        QCOMPARE(view.model()->rowCount(), 0);
        const QAbstractItemModel& m = *view.proxy();
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(view.table()->horizontalHeader()->sortIndicatorSection(), dop("device_self_us"));
        QCOMPARE(m.headerData(dop("device_self_us"), Qt::Horizontal).toString(),
                 QStringLiteral("Device Self (us)"));

        QCOMPARE(shown(m, 0, dop("name")), QStringLiteral("aten::cudnn_convolution"));
        QCOMPARE(sortValue(m, 0, dop("calls")), 1.0);
        QCOMPARE(sortValue(m, 0, dop("device_self_us")), 15.0);
        QCOMPARE(shown(m, 0, dop("device_self_us")), QStringLiteral("15.00"));
        QCOMPARE(sortValue(m, 0, dop("device_total_us")), 15.0);
        QCOMPARE(sortValue(m, 0, dop("host_self_us")), 5.0);
        QCOMPARE(sortValue(m, 0, dop("host_total_us")), 10.0);
        QCOMPARE(shown(m, 0, dop("tc_eligible")), QStringLiteral("Yes"));
        QCOMPARE(sortValue(m, 0, dop("tc_self_pct")), 100.0);
        QCOMPARE(sortValue(m, 0, dop("tc_total_pct")), 100.0);
        QCOMPARE(shown(m, 1, dop("name")), QStringLiteral("op_no_tc"));
        QCOMPARE(sortValue(m, 1, dop("device_self_us")), 10.0);
        QCOMPARE(shown(m, 1, dop("tc_eligible")), QStringLiteral("No"));
        QCOMPARE(shown(m, 2, dop("name")), QStringLiteral("aten::conv2d"));
        QCOMPARE(sortValue(m, 2, dop("device_self_us")), 0.0);
        QCOMPARE(sortValue(m, 2, dop("device_total_us")), 25.0);
        QCOMPARE(sortValue(m, 2, dop("host_self_us")), 80.0);
        QCOMPARE(sortValue(m, 2, dop("host_total_us")), 100.0);
        QCOMPARE(sortValue(m, 2, dop("tc_self_pct")), 0.0);
        QCOMPARE(sortValue(m, 2, dop("tc_total_pct")), 60.0);

        QVERIFY(view.table()->isColumnHidden(dop("input_shape")));
        QVERIFY(view.table()->isColumnHidden(dop("call_stack")));
        QVERIFY(!view.table()->isColumnHidden(dop("device_self_us")));
        QVERIFY(!view.table()->isColumnHidden(dop("tc_total_pct")));
        QCOMPARE(view.chart()->chartedColumn(), dop("device_self_us"));
        QCOMPARE(view.chart()->barCount(), 3);
        QCOMPARE(view.chart()->titleElement()->text(), QStringLiteral("Top 3 by Device Self (us)"));
    }

    // Sorting by another time re-ranks numerically and the chart follows.
    void kinetoOperatorsSortFilterAndChart() {
        OperatorsView view;
        view.setTrace(readTrace("tb_plugin/test_tensor_core.json"), QStringLiteral("fixture"));
        const QAbstractItemModel& m = *view.proxy();
        view.table()->sortByColumn(dop("host_self_us"), Qt::DescendingOrder);
        QCOMPARE(shown(m, 0, dop("name")), QStringLiteral("aten::conv2d"));
        QCOMPARE(sortValue(m, 0, dop("host_self_us")), 80.0);
        QCOMPARE(sortValue(m, 2, dop("host_self_us")), 5.0); // a tie of op_no_tc and cudnn
        QCOMPARE(view.chart()->chartedColumn(), dop("host_self_us"));
        view.setNameFilter(QStringLiteral("conv"));
        QCOMPARE(m.rowCount(), 2);
        view.setNameFilter(QString());
        QCOMPARE(m.rowCount(), 3);

        // No operator recorded a call stack: no such grouping, and the pane says why.
        QVERIFY(!view.setDeviceGrouping(DeviceOpGrouping::NameAndStack));
        QCOMPARE(view.callStackText(),
                 QStringLiteral("No call stacks: record with torch.profiler(with_stack=True)"));
    }

    // test_memory_view: 8 operators by name, 9 by name and input shapes
    // (aten::to with "[]" once and with "[[2, 8, 5], ...]" three times).
    void kinetoOperatorsRegroup() {
        OperatorsView view;
        QAbstractItemModelTester tester(view.deviceModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setTrace(readTrace("tb_plugin/test_memory_view.json"), QStringLiteral("fixture"));
        const QAbstractItemModel& m = *view.proxy();
        QCOMPARE(m.rowCount(), 8);
        QCOMPARE(shown(m, 0, dop("name")), QStringLiteral("aten::nll_loss_backward"));
        QCOMPARE(sortValue(m, 0, dop("device_self_us")), 30.0);
        const int to = rowNamed(m, QStringLiteral("aten::to"));
        QVERIFY(to >= 0);
        QCOMPARE(sortValue(m, to, dop("calls")), 4.0);
        QCOMPARE(sortValue(m, to, dop("host_self_us")), 220.0);

        QVERIFY(view.setDeviceGrouping(DeviceOpGrouping::NameAndShapes));
        QCOMPARE(m.rowCount(), 9);
        QVERIFY(!view.table()->isColumnHidden(dop("input_shape")));
        QVERIFY(view.table()->isColumnHidden(dop("call_stack")));
        int by_shape = -1;
        for (int row = 0; row < m.rowCount(); ++row)
            if (shown(m, row, dop("name")) == QStringLiteral("aten::to") &&
                shown(m, row, dop("input_shape")) ==
                    QStringLiteral("[[2, 8, 5], [], [], [], [], [], [], []]"))
                by_shape = row;
        QVERIFY(by_shape >= 0);
        QCOMPARE(sortValue(m, by_shape, dop("calls")), 3.0);
        QCOMPARE(sortValue(m, by_shape, dop("host_self_us")), 210.0);

        QVERIFY(view.setDeviceGrouping(DeviceOpGrouping::Name));
        QCOMPARE(m.rowCount(), 8);
        QVERIFY(view.table()->isColumnHidden(dop("input_shape")));
    }

    // test_pure_cpu has no device time: sorted by host self time (aten::mm
    // 40 us, aten::to 10 us), the device columns hidden, the chart on host self.
    void kinetoOperatorsWithoutDeviceTimeRankByHostSelf() {
        OperatorsView view;
        view.setTrace(readTrace("tb_plugin/test_pure_cpu.json"), QStringLiteral("cpu"));
        QVERIFY(view.showsDeviceOps());
        const QAbstractItemModel& m = *view.proxy();
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(view.table()->horizontalHeader()->sortIndicatorSection(), dop("host_self_us"));
        QCOMPARE(shown(m, 0, dop("name")), QStringLiteral("aten::mm"));
        QCOMPARE(sortValue(m, 0, dop("host_self_us")), 40.0);
        QCOMPARE(shown(m, 1, dop("name")), QStringLiteral("aten::to"));
        QVERIFY(view.table()->isColumnHidden(dop("device_self_us")));
        QVERIFY(view.table()->isColumnHidden(dop("tc_self_pct")));
        QVERIFY(!view.table()->isColumnHidden(dop("host_self_us")));
        QCOMPARE(view.chart()->chartedColumn(), dop("host_self_us"));
        QVERIFY(view.chart()->titleElement()->text().endsWith(QStringLiteral("Host Self (us)")));
    }

    // tests/data/kineto_call_stacks.json: two aten::linear calls (each over an
    // aten::addmm launching one kernel, 20 and 8 us) from model.py lines 10
    // and 12, and an aten::relu without a call stack.
    void callStacksOfTheSelectedOperator() {
        OperatorsView view;
        QAbstractItemModelTester tester(view.deviceModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setTrace(readTrace("kineto_call_stacks.json"), QStringLiteral("stacks"));
        const QAbstractItemModel& m = *view.proxy();
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(shown(m, 0, dop("name")), QStringLiteral("aten::addmm"));
        QCOMPARE(sortValue(m, 0, dop("device_self_us")), 28.0);
        QCOMPARE(sortValue(m, 0, dop("host_self_us")), 35.0);
        QVERIFY(view.callStackText().startsWith(QStringLiteral("Select an operator")));

        const int linear = rowNamed(m, QStringLiteral("aten::linear"));
        QVERIFY(linear >= 0);
        QCOMPARE(sortValue(m, linear, dop("calls")), 2.0);
        view.table()->setCurrentIndex(m.index(linear, dop("name")));
        QCOMPARE(view.callStackText(), QStringLiteral("aten::linear: 2 call stacks\n\n"
                                                      "1 call:\n"
                                                      "  model.py(10): forward\n"
                                                      "  train.py(30): step\n\n"
                                                      "1 call:\n"
                                                      "  model.py(12): forward\n"
                                                      "  train.py(30): step"));
        view.table()->setCurrentIndex(m.index(rowNamed(m, QStringLiteral("aten::relu")), 0));
        QCOMPARE(view.callStackText(),
                 QStringLiteral("No call stacks: record with torch.profiler(with_stack=True)"));
    }

    // The same fixture by call stack: one row per (name, stack), the stack in
    // its column; by shapes: the first aten::linear call only.
    void callStacksWhenGroupedByStackOrShapes() {
        OperatorsView view;
        QAbstractItemModelTester tester(view.deviceModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setTrace(readTrace("kineto_call_stacks.json"), QStringLiteral("stacks"));
        const QAbstractItemModel& m = *view.proxy();
        QVERIFY(view.setDeviceGrouping(DeviceOpGrouping::NameAndStack));
        QCOMPARE(m.rowCount(), 5);
        QVERIFY(!view.table()->isColumnHidden(dop("call_stack")));
        QCOMPARE(shown(m, 0, dop("name")), QStringLiteral("aten::addmm"));
        QCOMPARE(sortValue(m, 0, dop("device_self_us")), 20.0);
        QCOMPARE(
            shown(m, 0, dop("call_stack")),
            QStringLiteral("functional.py(5): linear;model.py(10): forward;train.py(30): step"));
        QCOMPARE(
            shown(m, 1, dop("call_stack")),
            QStringLiteral("functional.py(5): linear;model.py(12): forward;train.py(30): step"));
        view.table()->setCurrentIndex(m.index(1, dop("name")));
        QCOMPARE(view.callStackText(), QStringLiteral("aten::addmm: 1 call stack\n\n"
                                                      "1 call:\n"
                                                      "  functional.py(5): linear\n"
                                                      "  model.py(12): forward\n"
                                                      "  train.py(30): step"));

        QVERIFY(view.setDeviceGrouping(DeviceOpGrouping::NameAndShapes));
        QCOMPARE(m.rowCount(), 5);
        int first = -1;
        for (int row = 0; row < m.rowCount(); ++row)
            if (shown(m, row, dop("input_shape")) == QStringLiteral("[[4, 8], [16, 8], [16]]"))
                first = row;
        QVERIFY(first >= 0);
        view.table()->setCurrentIndex(m.index(first, dop("name")));
        QVERIFY(view.callStackText().contains(QStringLiteral("model.py(10): forward")));
        QVERIFY(!view.callStackText().contains(QStringLiteral("model.py(12)")));
    }

    // Trainscope's own traces keep the OpStats table, also when read back
    // from the file it writes (whose "cat"s give it Kineto side tables).
    void trainscopeTracesKeepTheOpStatsTable() {
        OperatorsView view;
        const auto tiny = std::make_shared<const Trace>(testing::makeTinyTrace());
        const OpTable expected = computeOpStats(*tiny, OpGrouping::Name, OpScope::All);
        QVERIFY(!expected.rows.empty());
        view.setTrace(tiny, QStringLiteral("tiny"));
        QVERIFY(!view.showsDeviceOps());
        QCOMPARE(view.proxy()->sourceModel(), static_cast<QAbstractItemModel*>(view.model()));
        QCOMPARE(view.proxy()->columnCount(), int(opTableSpec(OpTable{}).columns.size()));
        QCOMPARE(view.model()->rowCount(), int(expected.rows.size()));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tiny.trace.json"));
        writeChromeTraceFile(*tiny, path.toStdString());
        auto read_back = std::make_shared<const Trace>(readChromeTraceFile(path.toStdString()));
        QVERIFY(read_back->hasKinetoInfo());

        // From a Kineto trace back to a Trainscope one: the old table, its default sort.
        view.setTrace(readTrace("tb_plugin/test_tensor_core.json"), QStringLiteral("kineto"));
        QVERIFY(view.showsDeviceOps());
        view.setTrace(read_back, QStringLiteral("read back"));
        QVERIFY(!view.showsDeviceOps());
        QCOMPARE(view.proxy()->sourceModel(), static_cast<QAbstractItemModel*>(view.model()));
        QCOMPARE(view.model()->rowCount(), int(expected.rows.size()));
        QCOMPARE(view.deviceModel()->rowCount(), 0);
        QCOMPARE(view.table()->horizontalHeader()->sortIndicatorSection(), opc("self_cpu_ns"));
        QCOMPARE(view.chart()->chartedColumn(), opc("self_cpu_ns"));
        QVERIFY(view.callStackText().isEmpty());
    }
};

TRAINSCOPE_WIDGET_TEST(test_gputrace, GpuTraceViewsTest)
#include "test_gputrace.moc"
