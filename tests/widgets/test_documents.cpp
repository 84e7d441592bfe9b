// Several documents open at once: each is listed once in the Document
// selector, choosing one shows it in every view again, Close Document shows
// the next one or nothing. A load shows its file and progress in the status
// bar, and Cancel leaves the document shown as it was. Also --open twice.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QProgressBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include "GuiFixture.h"
#include "SyntheticTrace.h"
#include "TestPaths.h"
#include "TestTraces.h"
#include "WidgetTests.h"
#include "common/DocumentSelection.h"
#include "gpu/OverviewContent.h"
#include "operators/OpTableModel.h"
#include "operators/OperatorsView.h"
#include "ranks/RankHeatMap.h"
#include "ranks/RanksView.h"
#include "shell/Application.h"
#include "shell/DocumentLoader.h"
#include "shell/DocumentPages.h"
#include "shell/DocumentSelector.h"
#include "shell/LoadIndicator.h"
#include "shell/OpenedDocument.h"
#include "shell/StatusBar.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "trace/ChromeTraceWriter.h"
#include "util/BackgroundWrites.h"

using namespace ts;
using namespace ts::gui;
using testing::kOpenTimeoutMs;

namespace {

// What the Operators and Timeline tabs show, enough to tell two traces apart.
using Seen = std::pair<int, size_t>;

Seen seen(const MainWindow& window) {
    return {window.page<OperatorsView>("operators")->model()->rowCount(),
            window.page<TimelineView>("timeline")->timeline()->layout().rows().size()};
}

QString writeTrace(const QDir& dir, const QString& name, const Trace& trace) {
    const QString path = dir.filePath(name);
    writeChromeTraceFile(trace, path.toStdString());
    return path;
}

// Two traces the views tell apart: a.trace.json (tiny) and b.trace.json
// (5,000 synthetic events).
struct TwoTraces {
    QString a, b;
};

TwoTraces writeTwoTraces(const QDir& dir) {
    return {
        writeTrace(dir, QStringLiteral("a.trace.json"), testing::makeTinyTrace()),
        writeTrace(dir, QStringLiteral("b.trace.json"), testing::makeSyntheticTrace({5000, 3, 5}))};
}

// What a user's pick in the combo box does.
void choose(DocumentSelector& documents, int index) {
    documents.combo()->setCurrentIndex(index);
    emit documents.combo()->activated(index);
}

} // namespace

class DocumentsTest : public QObject {
    Q_OBJECT
    Machine machine_;

private slots:
    void initTestCase() { machine_ = Machine::probe(); }

    void switchesBetweenOpenDocuments() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        const auto [a, b] = writeTwoTraces(fx.dir.path());
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(a);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        const Seen seen_a = seen(window);
        window.openPath(b);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, kOpenTimeoutMs);
        const Seen seen_b = seen(window);
        QVERIFY(seen_a != seen_b);

        DocumentSelector& documents = *window.documents();
        QCOMPARE(documents.count(), 2);
        QCOMPARE(documents.currentIndex(), 1);
        QCOMPARE(documents.combo()->itemText(0), QStringLiteral("a.trace.json"));
        QCOMPARE(documents.combo()->itemText(1), QStringLiteral("b.trace.json"));
        const QString tip = documents.combo()->itemData(1, Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(b) && tip.contains(QStringLiteral(" events")), qPrintable(tip));

        window.showView(QStringLiteral("timeline"));
        choose(documents, 0);
        QCOMPARE(seen(window), seen_a);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("a.trace.json")));
        QCOMPARE(QString::fromLatin1(window.currentView()->name),
                 QStringLiteral("timeline")); // switching keeps the tab
        choose(documents, 1);
        QCOMPARE(seen(window), seen_b);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("b.trace.json")));
    }

    // A trace above the loader's threshold opens with its Overview and
    // Timeline only; each of the other tabs is analysed when it is first
    // shown, and what was analysed stays with the document.
    void largeTracesAnalyseEachTabWhenShown() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        window.loader()->setDeferViewsAbove(0);
        const auto [a, b] = writeTwoTraces(fx.dir.path());
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(b);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        const auto doc = shown.at(0).at(0).value<OpenedDocument>();
        QVERIFY(doc.deferred && !doc.analysis->full && doc.analysis->overview);
        QCOMPARE(QString::fromLatin1(window.currentView()->name), QStringLiteral("overview"));
        QVERIFY(!window.page<TimelineView>("timeline")->timeline()->layout().rows().empty());
        QCOMPARE(window.page<OperatorsView>("operators")->model()->rowCount(), 0);
        QVERIFY(window.pages()->waiting(views::findView("operators")));

        window.showView(QStringLiteral("operators"));
        QTRY_VERIFY_WITH_TIMEOUT(window.page<OperatorsView>("operators")->model()->rowCount() > 5,
                                 kOpenTimeoutMs);
        QVERIFY(doc.analysis->full);      // kept with the document
        QVERIFY(!doc.analysis->overview); // the full analysis holds the Overview's
        QVERIFY(!doc.analysis->memory);   // the Memory tab was not shown yet
        QVERIFY(!window.pages()->waiting(views::findView("operators")));
        window.showView(QStringLiteral("memory"));
        QTRY_VERIFY_WITH_TIMEOUT(doc.analysis->memory != nullptr, kOpenTimeoutMs);

        window.openPath(a);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, kOpenTimeoutMs);
        window.showView(QStringLiteral("operators")); // a's analysis starts
        QTRY_VERIFY_WITH_TIMEOUT(!window.pages()->computing(), kOpenTimeoutMs);
        const Seen seen_a = seen(window);
        choose(*window.documents(), 0);
        QVERIFY(window.page<OperatorsView>("operators")->model()->rowCount() >
                5); // at once: b was analysed
        QVERIFY(!window.pages()->computing());
        choose(*window.documents(), 1);
        QCOMPARE(seen(window), seen_a);
    }

    // A large trace opened again shows the Overview and the Timeline's
    // launches and step spans from its Overview cache, without analysing it,
    // and they are what the analysis gave the first time; the other tabs are
    // still analysed when shown.
    void aLargeTraceReopensWithItsCachedOverview() {
        QTemporaryDir dir;
        const QByteArray cache = QDir(dir.path()).filePath(QStringLiteral("cache")).toUtf8();
        const QByteArray previous = qgetenv("TRAINSCOPE_CACHE_DIR");
        qputenv("TRAINSCOPE_CACHE_DIR", cache);
        const QString path = QString::fromStdString(
            testing::writePaddedH100Trace(std::string(TRAINSCOPE_SOURCE_DIR) + "/tests/data",
                                          dir.path().toStdString())
                .string());
        QVERIFY(!path.isEmpty());
        const OpenedDocument first = openDocument(path, {}, 0);
        waitForBackgroundWrites(); // the index and the Overview are kept
        const OpenedDocument second = openDocument(path, {}, 0);
        if (previous.isEmpty())
            qunsetenv("TRAINSCOPE_CACHE_DIR");
        else
            qputenv("TRAINSCOPE_CACHE_DIR", previous);
        QVERIFY2(first.ok() && second.ok(), (first.error + second.error).c_str());
        QVERIFY(!first.times.from_index && !first.times.overview_cached);
        QVERIFY(second.times.from_index && second.times.overview_cached);
        QVERIFY(QDir(QString::fromUtf8(cache)).entryList({QStringLiteral("*.tsov")}).size() == 1);

        const OverviewContent a = overviewOfTrace(*first.analysis->analysis());
        const OverviewContent b = overviewOfTrace(*second.analysis->analysis());
        QVERIFY(!a.empty());
        QCOMPARE(b.source, a.source);
        QCOMPARE(b.categories, a.categories);
        QCOMPARE(b.average_us, a.average_us);
        QCOMPARE(b.steps.size(), a.steps.size());
        for (size_t i = 0; i < a.steps.size(); ++i) {
            QCOMPARE(b.steps[i].label, a.steps[i].label);
            QCOMPARE(b.steps[i].us, a.steps[i].us);
        }
        QCOMPARE(b.gpus.size(), a.gpus.size());
        QCOMPARE(b.gpus.front().utilization, a.gpus.front().utilization);
        QCOMPARE(b.gpus.front().name, a.gpus.front().name);
        QCOMPARE(b.recommendations.size(), a.recommendations.size());

        QVERIFY(first.tracks->launches.size() > 1000);
        QVERIFY(second.tracks->launches.byRuntime() == first.tracks->launches.byRuntime());
        QVERIFY(second.tracks->launches.byDevice() == first.tracks->launches.byDevice());
        QCOMPARE(second.tracks->steps.size(), first.tracks->steps.size());
        for (size_t i = 0; i < first.tracks->steps.size(); ++i) {
            QCOMPARE(second.tracks->steps[i].device_start, first.tracks->steps[i].device_start);
            QCOMPARE(second.tracks->steps[i].device_end, first.tracks->steps[i].device_end);
        }
        QCOMPARE(second.tracks->counterRows(), first.tracks->counterRows());

        // The tabs beyond the Overview analyse the reopened trace in full.
        QVERIFY(second.deferred && !second.analysis->full);
        const DocumentAnalysis all =
            sources::completeFor(*second.trace, *second.analysis, AnalysisNeed::Analysis);
        QVERIFY(all.full && all.full->scope == GpuAnalysisScope::All);
        QVERIFY(!all.full->kernels.by_name.empty());
    }

    void opensEveryPathAskedForInOrder() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        const auto [a, b] = writeTwoTraces(fx.dir.path());
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(a);
        window.openPath(b); // while a loads: waits in line, is not dropped
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, kOpenTimeoutMs);
        QCOMPARE(window.documents()->count(), 2);
        QCOMPARE(window.documents()->currentIndex(), 1);
        QCOMPARE(QString::fromStdString(shown.at(1).at(0).value<OpenedDocument>().path),
                 QFileInfo(b).absoluteFilePath());
    }

    void theSamePathIsListedOnce() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        const auto [a, b] = writeTwoTraces(fx.dir.path());
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(a);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        const Seen seen_a = seen(window);
        window.openPath(b);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, kOpenTimeoutMs);
        window.openPath(a); // listed: shown again at once, not read again
        QCOMPARE(shown.count(), 3);
        QVERIFY(!window.loader()->busy());
        QCOMPARE(window.documents()->count(), 2);
        QCOMPARE(window.documents()->currentIndex(), 0);
        QCOMPARE(seen(window), seen_a);
    }

    void closeDocumentShowsTheNextOrNothing() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        const auto [a, b] = writeTwoTraces(fx.dir.path());
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(a);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        const Seen seen_a = seen(window);
        window.openPath(b);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, kOpenTimeoutMs);

        window.closeDocument(); // b, the current one
        QCOMPARE(window.documents()->count(), 1);
        QCOMPARE(QString::fromStdString(window.documents()->at(0).path),
                 QFileInfo(a).absoluteFilePath());
        QCOMPARE(seen(window), seen_a);
        window.closeDocument();
        QCOMPARE(window.documents()->count(), 0);
        QCOMPARE(window.page<OperatorsView>("operators")->model()->rowCount(), 0);
        QVERIFY(window.page<TimelineView>("timeline")->timeline()->layout().rows().empty());
        QCOMPARE(window.windowTitle(), QStringLiteral("Trainscope"));
        window.closeDocument(); // nothing open: nothing happens
        QCOMPARE(window.documents()->count(), 0);
    }

    void cancelKeepsTheShownDocument() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        const QString a =
            writeTrace(fx.dir.path(), QStringLiteral("a.trace.json"), testing::makeTinyTrace());
        // Large enough that its read is still going when Cancel is clicked.
        const QString big = writeTrace(fx.dir.path(), QStringLiteral("big.trace.json"),
                                       testing::makeSyntheticTrace({300000, 4, 3}));
        QSignalSpy shown(&window, &MainWindow::documentShown);
        QSignalSpy errors(&window, &MainWindow::errorReported);
        window.openPath(a);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        const Seen seen_a = seen(window);
        LoadIndicator* indicator = window.statusBarWidget()->loadIndicator();
        QVERIFY(!indicator->isVisible());

        window.openPath(big);
        QVERIFY(window.loader()->busy());
        QVERIFY(indicator->isVisible());
        QCOMPARE(indicator->fileName(), QStringLiteral("big.trace.json"));
        QTest::mouseClick(indicator->cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, kOpenTimeoutMs);
        const auto doc = shown.at(1).at(0).value<OpenedDocument>();
        QVERIFY(doc.cancelled);
        QVERIFY(!doc.ok() && !doc.trace && doc.error.empty());

        QVERIFY(!indicator->isVisible());
        QVERIFY(!window.loader()->busy());
        QCOMPARE(errors.count(), 0); // a cancel is no error
        QCOMPARE(window.documents()->count(), 1);
        QCOMPARE(seen(window), seen_a);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("a.trace.json")));
    }

    // Cancel once the file is read: the analysis after it stops too, and the
    // load ends with nothing, as a cancel during the read does.
    void cancelAfterTheReadStopsTheAnalysis() {
        QTemporaryDir dir;
        const QString path = writeTrace(dir.path(), QStringLiteral("t.trace.json"),
                                        testing::makeSyntheticTrace({20000, 2, 3}));
        for (const size_t defer : {size_t(0), sources::kDeferViewsAboveEvents}) {
            CancelFlag cancel;
            ReadProgress progress;
            bool read = false;
            progress.report = [&](uint64_t done, uint64_t total) {
                if (done == total) {
                    read = true;
                    cancel.request(); // after the read's last check
                }
                return true;
            };
            progress.cancel = &cancel;
            const OpenedDocument doc = openDocument(path, progress, defer);
            QVERIFY(read);
            QVERIFY(doc.cancelled);
            QVERIFY(!doc.ok() && !doc.trace && !doc.analysis->analysis() && doc.error.empty());
        }
        const OpenedDocument whole = openDocument(path);
        QVERIFY(whole.ok() && whole.analysis->analysis());
    }

    void commandLineOpensSeveralPaths() {
        QTemporaryDir dir;
        const auto [a, b] = writeTwoTraces(dir.path());
        const QString png = dir.filePath(QStringLiteral("two.png"));
        QCOMPARE(runApplication({"trainscope", "--settings", dir.filePath("s.ini"), "--open", a,
                                 "--open", b, "--view", "timeline", "--screenshot", png, "--size",
                                 "1200x800", "--quit-when-done"}),
                 0);
        QCOMPARE(QImage(png).size(), QSize(1200, 800));
        // A missing one among them fails the run, after the others opened.
        QCOMPARE(runApplication({"trainscope", "--settings", dir.filePath("s.ini"), "--open", a,
                                 "--open", dir.filePath("missing.json"), "--quit-when-done"}),
                 1);
        // --find with no match, and after a failed open: exit 1 once (it used to recurse).
        QCOMPARE(runApplication({"trainscope", "--settings", dir.filePath("s.ini"), "--open", a,
                                 "--find", "no such event", "--quit-when-done"}),
                 1);
        QCOMPARE(runApplication({"trainscope", "--settings", dir.filePath("s.ini"), "--open",
                                 dir.filePath("missing.json"), "--find", "x", "--quit-when-done"}),
                 1);
    }

    // The Distributed tab's drill-in: a heat map cell opens that rank's trace
    // as a document of its own, at that step in every view.
    void aRankOpensFromTheDistributedTabAtItsStep() {
        testing::GuiFixture fx;
        MainWindow& window = fx.open(machine_);
        for (const char* rank : {"rank-0.json.gz", "rank-1.json.gz"})
            QVERIFY(QFile::copy(testing::dataFile("distributed_hta/") + QLatin1String(rank),
                                fx.dir.filePath(QLatin1String(rank))));
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPath(fx.dir.path());
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kOpenTimeoutMs);
        RanksView* ranks = window.page<RanksView>("distributed");
        QCOMPARE(ranks->heatMap()->data().steps,
                 QStringList({QStringLiteral("551"), QStringLiteral("552")}));
        ranks->openCell(1, 1); // rank 1, step 552
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, kOpenTimeoutMs);
        QCOMPARE(window.documents()->count(), 2);
        QVERIFY(window.documents()->combo()->currentText().startsWith(QStringLiteral("rank-1")));
        const Selection& at = window.selection()->current();
        QCOMPARE(at.step, std::optional<int64_t>(552));
        QVERIFY(at.range && at.range->end_ns > at.range->start_ns);
    }
};

TRAINSCOPE_WIDGET_TEST(test_documents, DocumentsTest)
#include "test_documents.moc"
