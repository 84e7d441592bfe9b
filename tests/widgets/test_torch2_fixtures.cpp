// Every view on the real PyTorch 2.15 CPU traces of tests/data/torch2
// (make_traces.py; the figures are checked in
// tests/torchfree/Torch2FixturesTest.cpp): each fixture opened in the whole
// window, then every view that applies to it shown in turn. A view either
// shows what the trace has (rows, a chart with data, no message in place of
// its content) or, for the GPU views of a CPU-only trace, says in words why
// it has nothing.
#include <QAbstractItemView>
#include <QDir>
#include <QtTest>

#include "GuiFixture.h"
#include "TestPaths.h"
#include "WidgetTests.h"
#include "charts/ThemedPlot.h"
#include "common/SortFilterProxy.h"
#include "common/SpecTablesView.h"
#include "gpu/CriticalPathView.h"
#include "gpu/GpuTableModels.h"
#include "gpu/KernelsView.h"
#include "gpu/OverviewView.h"
#include "memory/CategoryTimelineView.h"
#include "memory/MemoryCurveChart.h"
#include "memory/MemoryUsageView.h"
#include "modules/ModulesView.h"
#include "operators/OperatorsView.h"
#include "operators/TopOpsChart.h"
#include "ranks/DistributedModels.h"
#include "ranks/RankBarsChart.h"
#include "ranks/RanksView.h"
#include "roofline/RooflineChart.h"
#include "roofline/RooflineModel.h"
#include "roofline/RooflineView.h"
#include "shell/OpenedDocument.h"
#include "shell/ViewRegistry.h"
#include "sql/QueryView.h"
#include "timeline/TimelineLayout.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

using namespace ts;
using namespace ts::gui;

namespace {

QString fixture(const char* name) {
    return QString::fromUtf8(TRAINSCOPE_SOURCE_DIR) + QStringLiteral("/tests/data/torch2/") +
           QLatin1String(name);
}

// Points and bars of every chart under `widget`.
int chartPoints(QWidget* widget) {
    int points = 0;
    QList<QCustomPlot*> plots = widget->findChildren<QCustomPlot*>();
    if (auto* self = qobject_cast<QCustomPlot*>(widget)) plots.append(self);
    for (QCustomPlot* plot : plots)
        for (int i = 0; i < plot->plottableCount(); ++i)
            if (const QCPPlottableInterface1D* data = plot->plottable(i)->interface1D())
                points += data->dataCount();
    return points;
}

// The GPU views of HTA and the plugin: a CPU-only trace has nothing for them.
bool gpuOnly(const std::string& view) {
    for (const char* name : {"kernels", "temporal", "idle", "launches", "kernel-types", "queue",
                             "memory-bw", "annotations", "kernel-sequences"})
        if (view == name) return true;
    return false;
}

struct Expect {
    bool memory = false;  // profile_memory
    bool modules = false; // with_stack's nn.Module frames
    int steps = 0;
    bool ranks = false;
};

class Window {
public:
    Window() : window_(fx_.open(Machine::beforeLibTorch())) {}

    OpenedDocument open(const QString& path) {
        QSignalSpy shown(&window_, &MainWindow::documentShown);
        QSignalSpy errors(&window_, &MainWindow::errorReported);
        window_.openPath(path);
        [&] { QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1 || errors.count() > 0, 60000); }();
        if (!errors.isEmpty()) qWarning("error: %s", qPrintable(errors.at(0).at(0).toString()));
        if (shown.isEmpty()) return {};
        return shown.at(0).at(0).value<OpenedDocument>();
    }

    MainWindow& operator*() { return window_; }
    MainWindow* operator->() { return &window_; }

private:
    testing::GuiFixture fx_;
    MainWindow& window_;
};

// Shows `view` and checks it; QTest's QVERIFY and QCOMPARE return from here.
void checkView(MainWindow& w, const std::string& view, const Expect& e, const QString& file) {
    const QByteArray where =
        (QString::fromStdString(view) + QStringLiteral(" on ") + file).toUtf8();
    w.showView(QString::fromStdString(view));
    QCOMPARE(std::string(w.currentView()->name), view);
    QTest::qWait(50);
    if (view == "overview") {
        OverviewView* v = w.page<OverviewView>("overview");
        QVERIFY2(!v->content().empty(), where);
        QVERIFY2(v->averageModel()->rowCount() > 0, where);
        QVERIFY2(chartPoints(v) > 0, where);
        QVERIFY2(v->messageText().isEmpty(), qPrintable(where + ": " + v->messageText()));
    } else if (view == "operators") {
        OperatorsView* v = w.page<OperatorsView>("operators");
        QVERIFY2(v->proxy()->rowCount() > 20, where);
        QVERIFY2(chartPoints(v->chart()) > 0, where);
    } else if (view == "memory") {
        MemoryUsageView* v = w.page<MemoryUsageView>("memory");
        if (e.memory) {
            QCOMPARE(v->deviceCount(), 1);
            QCOMPARE(v->currentDevice(), QStringLiteral("CPU"));
            QVERIFY2(chartPoints(v->chart()) > 100, where);
            QVERIFY2(v->operatorProxy()->rowCount() > 0, where);
            QVERIFY2(v->allocationProxy()->rowCount() > 0, where);
            QVERIFY2(v->messageText().isEmpty(), qPrintable(where + ": " + v->messageText()));
        } else {
            QVERIFY2(!v->messageText().isEmpty(), where); // says profile_memory records it
        }
    } else if (view == "modules") {
        ModulesView* v = w.page<ModulesView>("modules");
        if (e.modules) {
            QVERIFY2(v->proxy()->rowCount() > 0, where);
            QVERIFY2(v->messageText().isEmpty(), qPrintable(where + ": " + v->messageText()));
        } else {
            QVERIFY2(!v->messageText().isEmpty(), where);
        }
    } else if (view == "timeline") {
        const TimelineLayout& layout = w.page<TimelineView>("timeline")->timeline()->layout();
        QVERIFY2(layout.trace() != nullptr, where);
        QVERIFY2(!layout.rows().empty(), where);
        QVERIFY2(layout.endNs() > layout.startNs(), where);
    } else if (view == "query") {
        QueryView* v = w.page<QueryView>("query");
        v->setSql(QStringLiteral("SELECT name, count(*) AS n FROM slices GROUP BY name"));
        QVERIFY2(v->run(), qPrintable(where + ": " + v->statusText()));
        QTRY_VERIFY_WITH_TIMEOUT(!v->running(), 30000);
        QVERIFY2(v->model()->rowCount() > 10, qPrintable(where + ": " + v->statusText()));
    } else if (view == "roofline") {
        // FLOPs: PyTorch 2.15 writes none into the trace (with_flops or not).
        RooflineView* v = w.page<RooflineView>("roofline");
        QVERIFY2(v->model()->rowCount() == 0 || chartPoints(v->chart()) > 0, where);
    } else if (view == "critical-path") {
        CriticalPathView* v = w.findChild<CriticalPathView*>();
        QVERIFY2(v, where);
        QVERIFY2(v->report() != nullptr, where);
        QVERIFY2(v->windows().size() >= std::max(1, e.steps), where);
    } else if (view == "distributed") {
        RanksView* v = w.page<RanksView>("distributed");
        QVERIFY2(e.ranks, where);
        QCOMPARE(v->rankModel()->rowCount(), 2);
        QVERIFY2(v->commOpModel()->rowCount() > 0, where);
        QVERIFY2(chartPoints(v->overlapChart()) > 0, where);
        QVERIFY2(v->messageText().isEmpty(), qPrintable(where + ": " + v->messageText()));
    } else if (view == "kernels") {
        KernelsView* v = w.page<KernelsView>("kernels");
        QCOMPARE(v->proxy()->rowCount(), 0);
        QVERIFY2(!v->messageText().isEmpty(), where);
    } else if (gpuOnly(view)) {
        {
            SpecTablesView* v = static_cast<SpecTablesView*>(w.viewWidget(view.c_str()));
            QVERIFY2(v, where);
            QVERIFY2(!v->messageText().isEmpty(), where); // why there is nothing
            // ... and nothing about a last step's device work it never had.
            for (const QString& text : {v->messageText(), v->notesText()})
                QVERIFY2(!text.contains(QStringLiteral("last ProfilerStep")),
                         qPrintable(where + ": " + text));
        }
    }
}

// Every view the window offers for the document.
int checkEveryView(MainWindow& w, const OpenedDocument& doc, const Expect& e, const QString& file) {
    int checked = 0;
    for (const ViewPage& page : viewPages()) {
        if (!page.appliesTo(&doc)) continue;
        const std::string name = page.info->name;
        if (name == "diff" || name == "runs" || name == "experiments")
            continue; // documents and folders of their own
        checkView(w, name, e, file);
        if (QTest::currentTestFailed()) return checked;
        ++checked;
    }
    return checked;
}

} // namespace

class Torch2FixturesTest : public QObject {
    Q_OBJECT
private slots:
    void everyViewOnEveryTrace_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("memory");
        QTest::addColumn<bool>("modules");
        QTest::addColumn<int>("steps");
        QTest::newRow("cnn span 1") << "cnn_span1.pt.trace.json.gz" << true << true << 2;
        QTest::newRow("cnn span 2") << "cnn_span2.pt.trace.json.gz" << true << true << 2;
        QTest::newRow("loader") << "loader.pt.trace.json.gz" << false << false << 3;
        QTest::newRow("memory") << "memory.pt.trace.json.gz" << true << true << 2;
        QTest::newRow("transformer") << "transformer.pt.trace.json.gz" << false << false << 2;
        QTest::newRow("rank 0") << "ddp_gloo/rank0.pt.trace.json.gz" << false << false << 2;
    }
    void everyViewOnEveryTrace() {
        QFETCH(QString, file);
        Expect e;
        QFETCH(bool, memory);
        QFETCH(bool, modules);
        QFETCH(int, steps);
        e.memory = memory, e.modules = modules, e.steps = steps;
        Window w;
        const OpenedDocument doc = w.open(fixture(qPrintable(file)));
        QVERIFY(doc.ok());
        QVERIFY(doc.trace);
        QCOMPARE(QString::fromLatin1(w->currentView()->name), QStringLiteral("overview"));
        const int checked = checkEveryView(*w, doc, e, file);
        if (QTest::currentTestFailed()) return;
        // Overview, the four Time views, the eleven of the GPU group and Memory.
        QCOMPARE(checked, 17);
    }

    void rankFolderInTheDistributedView() {
        Window w;
        const OpenedDocument doc = w.open(fixture("ddp_gloo"));
        QVERIFY(doc.ok());
        QVERIFY(doc.distributed);
        QVERIFY(doc.distributed_error.empty());
        Expect e;
        e.ranks = true, e.steps = 2;
        QVERIFY(findViewPage(QStringLiteral("distributed"))->appliesTo(&doc));
        checkEveryView(*w, doc, e, QStringLiteral("ddp_gloo"));
        if (QTest::currentTestFailed()) return;
        w->showView(QStringLiteral("distributed"));
        QCOMPARE(
            w.operator->()->page<RanksView>("distributed")->stepLabels(),
            QStringList({QStringLiteral("Average"), QStringLiteral("2"), QStringLiteral("3")}));
    }

    void memoryTimelineInMemoryByCategory() {
        Window w;
        const OpenedDocument doc = w.open(fixture("memory.raw.json.gz"));
        QVERIFY(doc.ok());
        QVERIFY(doc.categories);
        QVERIFY(!doc.trace);
        QCOMPARE(QString::fromLatin1(w->currentView()->name), QStringLiteral("memory-categories"));
        auto* v = w->findChild<CategoryTimelineView*>();
        QVERIFY(v);
        QCOMPARE(int(v->layers().size()), 8);
        for (const QCPGraph* layer : v->layers())
            QCOMPARE(layer->dataCount(), int(doc.categories->times_ns.size()));
        QVERIFY(chartPoints(v) > 8 * 1000);
        // A 434 KiB peak is drawn in KiB (it read 0.0004 in GiB).
        QCOMPARE(v->chart()->yAxis->label(), QStringLiteral("KiB"));
        double top = 0;
        for (auto it = v->layers().back()->data()->begin(); it != v->layers().back()->data()->end();
             ++it)
            top = std::max(top, it->value);
        QCOMPARE(top, 444512.0 / 1024);
        // At the peak: 444512 bytes (Torch2FixturesTest, figures.py).
        QCOMPARE(v->shownPoint(), categoryPeak(*doc.categories).index);
        QCOMPARE(categoryPeak(*doc.categories).total_bytes, int64_t(444512));
        // The trace views are not offered for it.
        QVERIFY(!findViewPage(QStringLiteral("operators"))->appliesTo(&doc));
    }

    // The plot form of export_memory_timeline (.json, not .raw.json.gz) is
    // refused with a message naming the file and saying what it is.
    void memoryTimelinePlotFormSaysWhatItIs() {
        Window w;
        QSignalSpy errors(&*w, &MainWindow::errorReported);
        QSignalSpy shown(&*w, &MainWindow::documentShown);
        w->openPath(fixture("memory.timeline.json.gz"));
        QTRY_VERIFY_WITH_TIMEOUT(errors.count() > 0, 60000);
        if (!shown.isEmpty()) QVERIFY(!shown.at(0).at(0).value<OpenedDocument>().ok());
        const QString error = errors.at(0).at(0).toString();
        QVERIFY2(error.contains(QStringLiteral("memory.timeline.json.gz")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("plot form")), qPrintable(error));
    }
};

TRAINSCOPE_WIDGET_TEST(test_torch2_fixtures, Torch2FixturesTest)
#include "test_torch2_fixtures.moc"
