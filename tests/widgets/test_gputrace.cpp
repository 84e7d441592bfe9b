// The Overview and Kernels tabs on the TensorBoard plugin's fixtures
// (tests/data/tb_plugin): the item models under QAbstractItemModelTester, the
// plugin's numbers (tests/torchfree/TbPluginConformanceTest.cpp checks the
// analysis against expected.json; here the same figures reach the views),
// grouping, filtering, CSV export and the empty states.
#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

#include "analysis/GpuTraceAnalysis.h"
#include "common/SortFilterProxy.h"
#include "gpu/AverageShareChart.h"
#include "gpu/GpuTableModels.h"
#include "gpu/KernelsView.h"
#include "gpu/OverviewView.h"
#include "gpu/StepBreakdownChart.h"
#include "operators/TopOpsChart.h"
#include "trace/ChromeTraceReader.h"

using namespace ts;
using namespace ts::gui;

namespace {

std::shared_ptr<const GpuTraceAnalysis> analyzeFixture(const char* name) {
    const Trace trace = readChromeTraceFile(std::string(TRAINSCOPE_SOURCE_DIR) +
                                            "/tests/data/tb_plugin/" + name + ".json");
    return std::make_shared<const GpuTraceAnalysis>(analyzeGpuTrace(trace));
}

double sortValue(const QAbstractItemModel& model, int row, int column) {
    return model.index(row, column).data(SortRole).toDouble();
}

QString shown(const QAbstractItemModel& model, int row, int column) {
    return model.index(row, column).data().toString();
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
        QCOMPARE(shown(*model, 0, AverageStepModel::Category), QStringLiteral("Kernel"));
        QCOMPARE(sortValue(*model, 0, AverageStepModel::Us), 60.0);
        QCOMPARE(sortValue(*model, 0, AverageStepModel::Percent), 50.0);
        QCOMPARE(sortValue(*model, 6, AverageStepModel::Us), 56.0);

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
        QCOMPARE(sortValue(*view.averageModel(), 3, AverageStepModel::Us), 4000.0);
        QCOMPARE(sortValue(*view.averageModel(), 3, AverageStepModel::Percent), 50.0);
        QVERIFY(view.messageText().isEmpty());

        view.setContent(overviewOfRun(RunRecord{}));
        QVERIFY(!view.messageText().isEmpty());
        view.clear();
        QVERIFY(!view.messageText().isEmpty());
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
        QCOMPARE(shown(m, 0, KernelName),
                 QStringLiteral("void cunn_ClassNLLCriterion_updateGradInput_kernel<float>"));
        QCOMPARE(shown(m, 0, KernelTensorCores), QStringLiteral("No"));
        QCOMPARE(sortValue(m, 0, KernelCalls), 3.0);
        QCOMPARE(sortValue(m, 0, KernelTotalUs), 55.0);
        QVERIFY(qAbs(sortValue(m, 0, KernelMeanUs) - 18.333333) < 1e-5);
        QCOMPARE(sortValue(m, 0, KernelMaxUs), 25.0);
        QCOMPARE(sortValue(m, 0, KernelMinUs), 10.0);
        QVERIFY(qAbs(sortValue(m, 0, KernelBlocksPerSm) - 4.045455) < 1e-5);
        QVERIFY(qAbs(sortValue(m, 0, KernelOccupancy) - 0.672727) < 1e-5);
        QCOMPARE(shown(m, 1, KernelName), QStringLiteral("void gemmSN_TN_kernel_64addr"));
        QCOMPARE(sortValue(m, 1, KernelTotalUs), 15.0);
        QCOMPARE(view.chart()->barCount(), 2);

        view.setNameFilter(QStringLiteral("gemm"));
        QCOMPARE(m.rowCount(), 1);
        view.setNameFilter(QString());

        view.setGroupByOperator(true);
        QCOMPARE(m.columnCount(), int(KernelSharedMemory) + 1);
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
        QCOMPARE(view.proxy()->rowCount(), 0);
    }
};

QTEST_MAIN(GpuTraceViewsTest)
#include "test_gputrace.moc"
