// The Temporal and Idle Time views: Holistic Trace Analysis' breakdowns in
// the window's generic tables view (common/SpecTablesView), the same tables
// as `trace-stats --view temporal|idle`, for small traces (analysed on
// open) and large ones (analysed when the view is first shown).
#include <QAbstractItemModelTester>
#include <QFile>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "GuiFixture.h"
#include "TestPaths.h"
#include "WidgetTests.h"
#include "analysis/GpuDiagnoses.h"
#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "common/SpecTableModel.h"
#include "common/SpecTablesView.h"
#include "gpu/CriticalPathView.h"
#include "gpu/OverviewView.h"
#include "report/IdleTables.h"
#include "shell/DocumentLoader.h"
#include "shell/DocumentPages.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "trace/ChromeTraceReader.h"

using namespace ts;
using namespace ts::gui;
using testing::dataFile;
using testing::kOpenTimeoutMs;

namespace {

// The view's tables, each sound under the model tester and with rows.
void checkTables(SpecTablesView* view, int count) {
    QVERIFY(view);
    QCOMPARE(view->tableCount(), count);
    for (int i = 0; i < count; ++i) {
        QAbstractItemModelTester tester(view->model(i),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(view->model(i)->rowCount() > 0);
    }
}

// Activates the first row of a table about events: the timeline selects it.
void activateFirstRow(MainWindow& window, SpecTablesView* view, int table) {
    const QModelIndex first = view->proxy(table)->index(0, 0);
    const int32_t event = view->model(table)->spec().row_events.at(
        size_t(view->proxy(table)->mapToSource(first).row()));
    QVERIFY(event >= 0);
    emit view->tableView(table)->activated(first);
    QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("timeline"));
    QCOMPARE(window.page<TimelineView>("timeline")->timeline()->selectedEvent(), event);
}

SpecTables idleTables(const GpuDiagnoses& d) {
    SpecTables t;
    t.tables = {idleTable({d.idle}), idleIntervalTable({d.idle})};
    return t;
}

} // namespace

class DiagnosesTest : public QObject {
    Q_OBJECT
    Machine machine_;

private slots:
    void initTestCase() { machine_ = Machine::probe(); }

    void tablesViewUnderModelTester() {
        const Trace trace =
            readChromeTraceFile(dataFile("distributed_hta/rank-0.json.gz").toStdString());
        const GpuDiagnoses d = diagnoseGpu(trace);
        SpecTablesView view;
        view.setTables(idleTables(d), QStringLiteral("rank 0"));
        QCOMPARE(view.tableCount(), 2);
        QAbstractItemModelTester streams(view.model(0),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester intervals(view.proxy(1),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(view.model(0)->rowCount(), 5); // streams 23, 84, 25, 7, 203
        QVERIFY(view.messageText().isEmpty());
        // Sorted by host wait, the longest first: stream 23's 596,037 us (HTA's figure).
        const int host = view.model(0)->column("host_wait_us");
        view.proxy(0)->sort(host, Qt::DescendingOrder);
        QCOMPARE(view.proxy(0)->index(0, view.model(0)->column("stream")).data().toString(),
                 QStringLiteral("23"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("idle.csv"));
        QString error;
        QVERIFY2(view.exportCsv(0, path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readLine().startsWith("rank,gpu,stream,host_wait_us,kernel_wait_us,other_us"));
        view.clear(QStringLiteral("nothing"));
        QCOMPARE(view.messageText(), QStringLiteral("nothing"));
        QCOMPARE(view.model(0)->rowCount(), 0);
    }

    // A small trace is diagnosed when it opens; the views show HTA's figures.
    void theWindowShowsTheBreakdowns() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(dataFile("kineto_call_stacks.json"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        window.showView(QStringLiteral("temporal"));
        SpecTablesView* temporal = window.page<SpecTablesView>("temporal");
        QVERIFY(temporal);
        QCOMPARE(temporal->model(0)->rowCount(), 1);
        const int idle = temporal->model(0)->column("idle_us");
        QCOMPARE(temporal->model(0)->index(0, idle).data(SortRole).toDouble(), 75.0);
        window.showView(QStringLiteral("idle"));
        QCOMPARE(window.page<SpecTablesView>("idle")->model(0)->rowCount(), 1);
        window.showView(QStringLiteral("launches"));
        SpecTablesView* launches = window.page<SpecTablesView>("launches");
        QCOMPARE(launches->tableCount(), 3); // summary, outliers, outlying launches
        QAbstractItemModelTester tester(launches->model(2),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(
            launches->model(0)->index(0, launches->model(0)->column("count")).data().toString(),
            QStringLiteral("2"));
        window.showView(QStringLiteral("kernel-types"));
        SpecTablesView* types = window.page<SpecTablesView>("kernel-types");
        QCOMPARE(types->tableCount(), 3);
        QCOMPARE(types->model(0)->index(0, 0).data().toString(), QStringLiteral("COMPUTATION"));
        // A kernel's row shows its longest run on the timeline.
        const QModelIndex first = types->proxy(2)->index(0, 0);
        const int32_t longest = types->model(2)->spec().row_events.at(
            size_t(types->proxy(2)->mapToSource(first).row()));
        QVERIFY(longest >= 0);
        emit types->tableView(2)->activated(first);
        QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("timeline"));
        QCOMPARE(window.page<TimelineView>("timeline")->timeline()->selectedEvent(), longest);
        window.showView(QStringLiteral("kernel-types"));
        QVERIFY(!qobject_cast<SpecTablesView*>(window.viewWidget("operators")));
        // The Overview's Diagnosis links each finding to its view.
        const QString diagnosis = window.page<OverviewView>("overview")->diagnosisText();
        QVERIFY2(diagnosis.contains(QStringLiteral("href=\"view:temporal\"")),
                 qPrintable(diagnosis));
        emit window.page<OverviewView>("overview")->viewRequested(QStringLiteral("idle"));
        QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("idle"));
    }

    // A large trace: the views wait, then are diagnosed when first shown.
    void aLargeTraceIsDiagnosedWhenShown() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.loader()->setDeferViewsAbove(0);
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(dataFile("h100/resnet50_bs64_bf16.pt.trace.json.gz"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        QVERIFY(window.pages()->waiting(views::findView("idle")));
        window.showView(QStringLiteral("idle"));
        SpecTablesView* view = window.page<SpecTablesView>("idle");
        QTRY_VERIFY_WITH_TIMEOUT(view->tableCount() == 2 && view->model(0)->rowCount() > 0,
                                 kOpenTimeoutMs);
        QVERIFY(view->notesText().contains(QStringLiteral("last ProfilerStep")));
        // The Overview said when its Diagnosis would come, and now has it.
        QVERIFY(window.page<OverviewView>("overview")
                    ->diagnosisText()
                    .contains(QStringLiteral("GPU idle")));
    }

    // The timeline shades each stream's idle gaps; clicking one (not an
    // event) explains its cause in the details pane.
    void idleGapsAreShadedAndExplainedOnTheTimeline() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(dataFile("h100/resnet50_bs64_bf16.pt.trace.json.gz"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        window.showView(QStringLiteral("timeline"));
        TimelineView& view = *window.page<TimelineView>("timeline");
        TimelineWidget& widget = *view.timeline();
        QVERIFY(widget.diagnoses());
        const std::vector<IdleGap>& gaps = widget.diagnoses()->idle.gaps;
        QVERIFY(!gaps.empty());
        const auto longest =
            std::max_element(gaps.begin(), gaps.end(), [](const IdleGap& a, const IdleGap& b) {
                return a.cause != IdleCause::HostWait ||
                       (b.cause == IdleCause::HostWait && a.end - a.start < b.end - b.start);
            });
        QCOMPARE(longest->cause, IdleCause::HostWait);
        widget.zoomToRange(longest->start, longest->end);
        const double middle = double(longest->start + longest->end) / 2;
        const int gutter = widget.width() - widget.viewport().width_px;
        const QPoint at(gutter + int(widget.viewport().xOf(middle)),
                        int(widget.eventCenter(longest->next).y()));
        QCOMPARE(widget.idleGapAt(at), int(longest - gaps.begin()));
        // Shaded: the gap's pixel is not the background's.
        const QColor shade = widget.grab().toImage().pixelColor(at);
        QVERIFY2(shade != widget.palette().color(QPalette::Base), qPrintable(shade.name()));
        QSignalSpy gap(&widget, &TimelineWidget::idleGapSelected);
        QTest::mouseClick(&widget, Qt::LeftButton, {}, at);
        QCOMPARE(gap.count(), 1);
        QCOMPARE(widget.selectedEvent(), -1);
        QVERIFY2(view.detailsHtml().contains(QStringLiteral("Idle: host wait")),
                 qPrintable(view.detailsHtml()));
        QVERIFY(view.detailsHtml().contains(QStringLiteral("waited for the CPU")));
        // Another trace drops the diagnoses of this one.
        window.openPath(dataFile("torch_profiler_sample.json"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, kOpenTimeoutMs);
        QVERIFY(!widget.diagnoses() || widget.diagnoses()->idle.gaps.empty());
    }

    // The queue length of each stream that queues and the bandwidth of each
    // kind of copy are counter rows below the tracks' own.
    void queueAndBandwidthAreCounterRows() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(dataFile("distributed_hta/rank-0.json.gz"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        window.showView(QStringLiteral("timeline"));
        TimelineWidget& widget = *window.page<TimelineView>("timeline")->timeline();
        QVERIFY(widget.diagnoses());
        const int own = int(widget.tracks()->counterRows());
        // Streams 23, 25 and 7 queue two launches or more; four kinds of copy.
        QCOMPARE(widget.layout().counterRows(), own + 7);
        QStringList names;
        for (const ValueRow& row : widget.diagnoses()->counters)
            names << QString::fromStdString(row.label);
        QVERIFY2(names.contains(QStringLiteral("Queue, GPU 0 stream 7")),
                 qPrintable(names.join(',')));
        QVERIFY(names.contains(QStringLiteral("Memcpy DtoD bandwidth")));
        for (const ValueRow& row : widget.diagnoses()->counters)
            if (row.label == "Queue, GPU 0 stream 7")
                QCOMPARE(row.series.peak(), 76.0); // HTA's max
        window.showView(QStringLiteral("queue"));
        QAbstractItemModelTester queue(window.page<SpecTablesView>("queue")->model(0),
                                       QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.showView(QStringLiteral("memory-bw"));
        QAbstractItemModelTester bandwidth(window.page<SpecTablesView>("memory-bw")->model(0),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(window.page<SpecTablesView>("memory-bw")->model(0)->rowCount(), 4);
    }

    // A large trace's diagnoses need its launches alone: the timeline's,
    // without the full analysis; the figures are those made with it.
    void aLargeTraceIsDiagnosedWithoutTheFullAnalysis() {
        const OpenedDocument doc =
            openDocument(dataFile("h100/resnet50_bs64_bf16.pt.trace.json.gz"), {}, 0);
        QVERIFY(doc.deferred && doc.analysis->launches);
        const DocumentAnalysis made =
            sources::completeFor(*doc.trace, *doc.analysis, AnalysisNeed::Diagnoses);
        QVERIFY(!made.full);
        QVERIFY(made.diagnoses);
        const GpuDiagnoses full = diagnoseGpu(*doc.trace);
        QCOMPARE(made.diagnoses->temporal.idle_ns, full.temporal.idle_ns);
        QCOMPARE(made.diagnoses->launches.launches.size(), full.launches.launches.size());
        QCOMPARE(made.diagnoses->queue.streams.size(), full.queue.streams.size());
        QVERIFY(made.has(AnalysisNeed::Diagnoses));
    }

    // A trace without GPU work says so instead of showing empty tables.
    void aCpuTraceSaysWhatIsMissing() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(dataFile("torch_profiler_sample.json"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        window.showView(QStringLiteral("temporal"));
        SpecTablesView* view = window.page<SpecTablesView>("temporal");
        QVERIFY(view->messageText().contains(QStringLiteral("no kernels")));
        QCOMPARE(view->tableCount(), 0);
    }

    // The Annotations and Kernel Sequences views on an H100 trace: HTA's
    // three GPU annotations, CPU ones, the kernels under them, and the
    // sequences, each table sound under the model tester; a sequence's row
    // shows its longest call on the timeline.
    void annotationsAndKernelSequences() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(dataFile("h100/gpt_decoder_bf16.pt.trace.json.gz"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        window.showView(QStringLiteral("annotations"));
        SpecTablesView* annotations = window.page<SpecTablesView>("annotations");
        checkTables(annotations, 3); // GPU, CPU, kernels by annotation
        // HTA's three, and the work under none.
        QCOMPARE(annotations->model(0)->rowCount(), 4);
        window.showView(QStringLiteral("kernel-sequences"));
        SpecTablesView* sequences = window.page<SpecTablesView>("kernel-sequences");
        QVERIFY(sequences);
        QCOMPARE(sequences->tableCount(), 2);
        QAbstractItemModelTester patterns(sequences->model(0),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester kernels(sequences->model(1),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(sequences->model(0)->rowCount() > 0);
        QVERIFY(sequences->model(1)->rowCount() > sequences->model(0)->rowCount());
        activateFirstRow(window, sequences, 0);
    }

    // The Critical Path view on an H100 trace: four sound tables (the path
    // by bound, its operators and kernels, what-if, the path in order); a
    // row of the path selects its event on the timeline, which draws the
    // path and dims the rest on demand.
    void criticalPathViewAndTimeline() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(dataFile("h100/resnet50_bs64_bf16.pt.trace.json.gz"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        window.showView(QStringLiteral("critical-path"));
        SpecTablesView* view = window.page<SpecTablesView>("critical-path");
        checkTables(view, 4);
        QVERIFY(view->model(0)->spec().title.find("ProfilerStep#2") != std::string::npos);
        activateFirstRow(window, view, 3);
        QVERIFY(window.page<TimelineView>("timeline")->showCriticalPath(true));
        QVERIFY(window.page<TimelineView>("timeline")->timeline()->criticalPathShown());
        QVERIFY(
            !window.page<TimelineView>("timeline")->timeline()->grab().isNull()); // paints the path
        QVERIFY(window.page<TimelineView>("timeline")->showCriticalPath(false));
        QVERIFY(!window.page<TimelineView>("timeline")->timeline()->criticalPathShown());

        // The editor: a what-if is the What If table's first row; a bad one
        // is said in plain words; another step recomputes the path.
        auto* cp = qobject_cast<CriticalPathView*>(view);
        QVERIFY(cp);
        QCOMPARE(cp->windows(),
                 QStringList({QStringLiteral("ProfilerStep#2"), QStringLiteral("ProfilerStep#3"),
                              QStringLiteral("ProfilerStep#4"), QStringLiteral("whole trace")}));
        QCOMPARE(cp->applyWhatIf(QStringLiteral("category:cpu_bound=0.5")), QString());
        QCOMPARE(view->model(2)->data(view->model(2)->index(0, 0), Qt::DisplayRole).toString(),
                 QStringLiteral("category cpu_bound x0.5"));
        QVERIFY(cp->applyWhatIf(QStringLiteral("kernel:nothing_like_it=0.5"))
                    .contains(QStringLiteral("no kernel named or containing")));
        QVERIFY(cp->applyWhatIf(QStringLiteral("fast")).contains(QStringLiteral("KIND:NAME")));
        cp->applyWhatIf(QString());
        QSignalSpy changed(cp, &CriticalPathView::pathChanged);
        QVERIFY(cp->chooseWindow(1));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(cp->report()->graph.window.label, std::string("ProfilerStep#3"));
        QVERIFY(view->model(0)->spec().title.find("ProfilerStep#3") != std::string::npos);
        QVERIFY(
            window.page<TimelineView>("timeline")->showCriticalPath(true)); // the new step's path
    }
};

TRAINSCOPE_WIDGET_TEST(test_diagnoses, DiagnosesTest)
#include "test_diagnoses.moc"
