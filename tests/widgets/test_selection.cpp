// One selection per document (common/DocumentSelection.h): a step picked in
// the Overview narrows the Operators and Kernels, zooms the Timeline and is
// bound in SQL; Back and "Whole document" undo it; each document keeps its
// own. And Compare with: the tables of one document as B − A against another.
#include <QComboBox>
#include <QtTest>

#include "GuiFixture.h"
#include "TestPaths.h"
#include "WidgetTests.h"
#include "common/DocumentSelection.h"
#include "common/SpecTableModel.h"
#include "common/SpecTablesView.h"
#include "gpu/KernelsView.h"
#include "gpu/OverviewView.h"
#include "gpu/StepBreakdownChart.h"
#include "operators/DeviceOpTableModel.h"
#include "operators/OperatorsView.h"
#include "shell/CompareSelector.h"
#include "shell/DocumentPages.h"
#include "shell/DocumentSelector.h"
#include "sql/QueryResultModel.h"
#include "sql/QueryView.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

using namespace ts;
using namespace ts::gui;
using testing::dataFile;
using testing::kOpenTimeoutMs;

namespace {

OpenedDocument open(MainWindow& window, const QString& path) {
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openPath(path);
    [&] { QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs); }();
    return shown.isEmpty() ? OpenedDocument{} : shown.at(0).at(0).value<OpenedDocument>();
}

// Calls of one operator in the Operators table as shown (-1: not listed).
int64_t callsOf(OperatorsView& view, const char* name) {
    DeviceOpTableModel* model = view.deviceModel();
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->rowAt(r).name == name) return model->rowAt(r).calls;
    return -1;
}

// The sum of a numeric column of a spec model.
double columnSum(const SpecTableModel& model, const std::string& key) {
    const int column = model.spec().columnIndex(key);
    double sum = 0;
    for (const auto& row : model.spec().rows)
        if (column >= 0 && !std::isnan(row[size_t(column)].value)) sum += row[size_t(column)].value;
    return sum;
}

} // namespace

class SelectionTest : public QObject {
    Q_OBJECT
private slots:
    void aStepPickedInTheOverviewNarrowsEveryView() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        const OpenedDocument doc =
            open(window, dataFile("h100/resnet50_bs64_bf16.pt.trace.json.gz"));
        QVERIFY(doc.ok());
        auto* operators = window.page<OperatorsView>("operators");
        const int64_t all_convolutions = callsOf(*operators, "aten::cudnn_convolution");
        QVERIFY(all_convolutions > 53);
        auto* kernels = window.page<KernelsView>("kernels");
        const double all_kernel_calls = columnSum(*kernels->byNameModel(), "Calls");

        // Step 3's bar (the second of steps 2, 3, 4).
        auto* overview = window.page<OverviewView>("overview");
        QCOMPARE(overview->content().steps.at(1).step, int64_t(3));
        emit overview->chart()->stepClicked(1);
        const Selection& s = window.selection()->current();
        QCOMPARE(s.step, std::optional<int64_t>(3));
        QVERIFY(s.range && s.range->end_ns > s.range->start_ns);

        QCOMPARE(callsOf(*operators, "aten::cudnn_convolution"), int64_t(53)); // one ResNet-50
        QVERIFY(kernels->byNameModel()->rowCount() > 0);
        QVERIFY(columnSum(*kernels->byNameModel(), "Calls") < all_kernel_calls / 2);
        window.showView(QStringLiteral("timeline"));
        const TimelineViewport& view =
            window.page<TimelineView>("timeline")->timeline()->viewport();
        QVERIFY(view.start_ns <= double(s.range->start_ns));
        QVERIFY(view.endNs() >= double(s.range->end_ns));
        QVERIFY(view.visibleNs() < 2.0 * double(s.range->end_ns - s.range->start_ns));

        // SQL has it bound, and follows it.
        auto* query = window.page<QueryView>("query");
        query->setSql(QStringLiteral("SELECT :step AS step, :start_ns AS start_ns, :rank AS rank"));
        QVERIFY(query->run());
        QTRY_VERIFY_WITH_TIMEOUT(!query->running() && query->model()->rowCount() == 1, 10000);
        QCOMPARE(query->model()->valueAt(0, 0).toLongLong(), 3LL);
        QCOMPARE(query->model()->valueAt(0, 1).toLongLong(), qlonglong(s.range->start_ns));
        QVERIFY(!query->model()->valueAt(0, 2).isValid()); // NULL: no rank picked
        emit overview->chart()->stepClicked(2);            // step 4
        QTRY_VERIFY_WITH_TIMEOUT(!query->running() && query->model()->rowCount() == 1 &&
                                     query->model()->valueAt(0, 0).toLongLong() == 4,
                                 10000);

        // Back, then the whole document.
        window.selection()->back();
        QCOMPARE(window.selection()->current().step, std::optional<int64_t>(3));
        window.selection()->clear();
        QCOMPARE(callsOf(*operators, "aten::cudnn_convolution"), all_convolutions);
        QCOMPARE(columnSum(*kernels->byNameModel(), "Calls"), all_kernel_calls);
    }

    // Where a view is offered follows from what the document provides.
    void theViewsOfferedFollowTheDocument() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        for (const char* name :
             {"overview", "live", "operators", "timeline", "runs", "experiments", "diff"})
            QVERIFY2(window.offers(QString::fromLatin1(name)), name); // nothing open
        for (const char* name : {"distributed", "snapshot", "memory-categories"})
            QVERIFY2(!window.offers(QString::fromLatin1(name)), name);
        open(window, dataFile("memory_snapshots/p2_seed1.pickle"));
        QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("snapshot"));
        for (const char* name : {"overview", "live", "operators", "timeline", "distributed"})
            QVERIFY2(!window.offers(QString::fromLatin1(name)), name);
        QVERIFY(window.offers(QStringLiteral("runs")));
        open(window, dataFile("distributed_hta"));
        QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("distributed"));
        for (const char* name : {"overview", "operators", "timeline", "distributed", "idle"})
            QVERIFY2(window.offers(QString::fromLatin1(name)), name);
        QVERIFY(!window.offers(QStringLiteral("snapshot")));
        QVERIFY(!window.offers(QStringLiteral("live"))); // no run
    }

    void eachDocumentKeepsItsSelection() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        open(window, dataFile("h100/resnet50_bs64_bf16.pt.trace.json.gz"));
        emit window.page<OverviewView>("overview")->chart()->stepClicked(0);
        QCOMPARE(window.selection()->current().step, std::optional<int64_t>(2));
        const int64_t in_step_2 =
            callsOf(*window.page<OperatorsView>("operators"), "aten::cudnn_convolution");
        QVERIFY(in_step_2 > 0 && in_step_2 <= 53);
        open(window, dataFile("distributed_hta/rank-0.json.gz"));
        QVERIFY(window.selection()->current().empty()); // a new document: nothing picked
        QCOMPARE(callsOf(*window.page<OperatorsView>("operators"), "aten::cudnn_convolution"),
                 int64_t(-1));
        window.documents()->select(0);
        emit window.documents()->chosen(window.documents()->at(0));
        QCOMPARE(window.selection()->current().step, std::optional<int64_t>(2));
        QCOMPARE(callsOf(*window.page<OperatorsView>("operators"), "aten::cudnn_convolution"),
                 in_step_2);
    }

    // A diagnosis table's row about an event shows it on the Timeline.
    void aTableRowShowsItsEventOnTheTimeline() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        open(window, dataFile("h100/resnet50_bs64_bf16.pt.trace.json.gz"));
        window.showView(QStringLiteral("launches"));
        auto* launches = window.page<SpecTablesView>("launches");
        QVERIFY(launches->tableCount() == 3);
        const int32_t event = launches->model(2)->spec().row_events.at(0);
        emit launches->eventActivated(event);
        QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("timeline"));
        QCOMPARE(window.page<TimelineView>("timeline")->timeline()->selectedEvent(), event);
        QCOMPARE(window.selection()->current().event, event);
    }

    void compareWithShowsTheTablesAsBMinusA() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(Machine::beforeLibTorch());
        open(window, dataFile("distributed_hta/rank-0.json.gz"));
        open(window, dataFile("distributed_hta/rank-1.json.gz"));
        CompareSelector* compare = window.compareSelector();
        QCOMPARE(compare->combo()->count(), 3); // nothing, rank 0, rank 1
        compare->choose(0);
        QVERIFY(window.pages()->baseline());
        auto* kernels = window.page<KernelsView>("kernels");
        const table::TableSpec& spec = kernels->byNameModel()->spec();
        QVERIFY(spec.columnIndex("in") >= 0);
        const int delta = spec.columnIndex("Total (us)_delta");
        QVERIFY(delta >= 0);
        // Rank 1's embedding kernels run 33.8 ms longer: the largest change comes first.
        QVERIFY(spec.rows.front()[size_t(delta)].value > 30000);
        window.showView(QStringLiteral("idle"));
        auto* idle = window.page<SpecTablesView>("idle");
        QTRY_VERIFY_WITH_TIMEOUT(idle->tableCount() == 2, 10000);
        const table::TableSpec& streams = idle->model(0)->spec();
        QCOMPARE(streams.columnIndex("stream_delta"), -1); // a stream pairs rows
        QVERIFY(streams.columnIndex("idle_us_delta") >= 0 ||
                streams.columns.back().key.find("_delta") != std::string::npos);
        QVERIFY(idle->notesText().contains(QStringLiteral("Compared with rank-0.json.gz")));

        // The shown document itself is no baseline; closing the baseline ends the comparison.
        window.documents()->select(0);
        emit window.documents()->chosen(window.documents()->at(0));
        QVERIFY(!window.pages()->baseline());
        window.closeDocument(); // rank 0, the baseline
        QVERIFY(!compare->chosen());
        QCOMPARE(kernels->byNameModel()->spec().columnIndex("in"), -1);
    }
};

TRAINSCOPE_WIDGET_TEST(test_selection, SelectionTest)
#include "test_selection.moc"
