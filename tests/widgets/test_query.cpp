// Time ▸ Query (SQL over the trace) and the timeline's area selection with
// its panel: results stream into a model sound under the model tester,
// errors point into the query, a long query is cancelled, result rows reach
// the timeline; Shift+drag and M select areas whose tables agree with the
// core summary, and a row's events are the ones left undimmed.
#include <QAbstractItemModelTester>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

#include "TestPaths.h"
#include "WidgetTests.h"
#include "analysis/AreaSummary.h"
#include "common/AppSettings.h"
#include "common/SpecTableModel.h"
#include "query/ExampleQueries.h"
#include "sql/QueryView.h"
#include "timeline/AreaPanel.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "trace/ChromeTraceReader.h"

using namespace ts;
using namespace ts::gui;

namespace {

constexpr int kQueryTimeoutMs = 60000;

std::shared_ptr<const Trace> gptTrace() {
    static const auto trace = std::make_shared<const Trace>(readChromeTraceFile(
        std::string(TRAINSCOPE_SOURCE_DIR) + "/tests/data/h100/gpt_decoder_bf16.pt.trace.json.gz"));
    return trace;
}

bool runAndWait(QueryView& view, const QString& sql) {
    QSignalSpy finished(&view, &QueryView::queryFinished);
    view.setSql(sql);
    if (!view.run()) return false;
    return finished.wait(kQueryTimeoutMs);
}

} // namespace

class QueryTest : public QObject {
    Q_OBJECT

private slots:
    void rowsStreamIntoAPagedModel() {
        QueryView view;
        view.setTrace(gptTrace(), QStringLiteral("gpt"));
        QAbstractItemModelTester tester(view.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(runAndWait(view, QStringLiteral("SELECT id, name, dur FROM slices ORDER BY id")));
        const int events = int(gptTrace()->events.size());
        QCOMPARE(view.model()->received(), events);
        // A page at a time: the rest come with scrolling (the tester fetches too).
        const int shown = view.model()->rowCount();
        QVERIFY(shown >= QueryResultModel::kPage && shown < events);
        QVERIFY(view.model()->canFetchMore({}));
        view.model()->fetchMore({});
        QCOMPARE(view.model()->rowCount(), shown + QueryResultModel::kPage);
        QCOMPARE(view.model()->columns(), (QStringList{"id", "name", "dur"}));
        QCOMPARE(view.model()->valueAt(5, 0).toLongLong(), 5);
        QVERIFY2(view.statusText().contains(QLocale().toString(events)),
                 qPrintable(view.statusText()));
        QCOMPARE(int(view.resultEvents().size()), events);
        // NULL shows as such.
        QVERIFY(runAndWait(view, QStringLiteral("SELECT NULL AS missing, 1.5 AS x")));
        QVERIFY2(view.model()->rowCount() == 1, qPrintable(view.statusText()));
        QCOMPARE(view.model()->columnCount(), 2);
        QCOMPARE(view.model()->data(view.model()->index(0, 0)).toString(), QStringLiteral("NULL"));
        QCOMPARE(view.model()->data(view.model()->index(0, 1)).toDouble(), 1.5);
    }

    void everyExampleRuns() {
        QueryView view;
        view.setTrace(gptTrace(), QStringLiteral("gpt"));
        for (const ExampleQuery& q : exampleQueries()) {
            QVERIFY(runAndWait(view, QString::fromUtf8(q.sql)));
            QVERIFY2(!view.statusText().contains(QStringLiteral("error")), q.question);
        }
    }

    void errorsPointIntoTheQuery() {
        QueryView view;
        view.setTrace(gptTrace(), QStringLiteral("gpt"));
        QVERIFY(runAndWait(view, QStringLiteral("SELECT nme FROM slices")));
        QVERIFY(view.statusText().contains(QStringLiteral("no such column: nme")));
        QVERIFY(view.statusText().contains(QStringLiteral("kernels(id,")));
        auto* editor = view.findChild<QPlainTextEdit*>(QStringLiteral("queryEditor"));
        QVERIFY(editor);
        QCOMPARE(editor->textCursor().selectedText(), QStringLiteral("nme"));
        QVERIFY(runAndWait(view, QStringLiteral("DELETE FROM slices")));
        QVERIFY(view.statusText().contains(QStringLiteral("only reads")));
        QCOMPARE(view.model()->received(), 0);
    }

    void aLongQueryIsCancelled() {
        QueryView view;
        view.setTrace(gptTrace(), QStringLiteral("gpt"));
        QSignalSpy finished(&view, &QueryView::queryFinished);
        view.setSql(
            QStringLiteral("SELECT count(*) FROM slices a, slices b WHERE a.dur + b.dur < 0"));
        QVERIFY(view.run());
        QVERIFY(view.running());
        QTest::qWait(200);
        view.cancel();
        QVERIFY(finished.wait(kQueryTimeoutMs));
        QVERIFY(view.statusText().contains(QStringLiteral("Cancelled")));
        QVERIFY(!view.running());
    }

    void resultRowsReachTheTimeline() {
        QueryView view;
        view.setTrace(gptTrace(), QStringLiteral("gpt"));
        QSignalSpy activated(&view, &QueryView::eventActivated);
        QVERIFY(runAndWait(view, QStringLiteral("SELECT kernel_id, delay FROM launches ORDER BY "
                                                "delay DESC LIMIT 5")));
        const QModelIndex first = view.model()->index(0, 1);
        emit view.table()->doubleClicked(first);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).value<int32_t>(),
                 int32_t(view.model()->valueAt(0, 0).toLongLong()));
        QCOMPARE(int(view.resultEvents().size()), 5);
    }

    void savedQueriesPersist() {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
        settings.saveQuery(QStringLiteral("kernels"), QStringLiteral("SELECT * FROM kernels"));
        QCOMPARE(settings.savedQueries().value(QStringLiteral("kernels")),
                 QStringLiteral("SELECT * FROM kernels"));
        settings.removeQuery(QStringLiteral("kernels"));
        QVERIFY(settings.savedQueries().isEmpty());
    }

    void shiftDragSelectsAnAreaAndThePanelSummarizesIt() {
        TimelineView view;
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto trace = gptTrace();
        view.setTrace(trace, QStringLiteral("gpt"));
        TimelineWidget* timeline = view.timeline();
        QSignalSpy area(timeline, &TimelineWidget::areaSelected);
        QSignalSpy shown(view.areaPanel(), &AreaPanel::summaryShown);
        // Across the lanes at the top, over the middle third of the view.
        const int x0 = timeline->width() / 3, x1 = timeline->width() * 2 / 3;
        const int y = timeline->height() / 2;
        QTest::mousePress(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(x0, 40));
        QTest::mouseMove(timeline, QPoint(x1, y));
        QTest::mouseRelease(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(x1, y));
        QCOMPARE(area.count(), 1);
        const TraceArea selected = area.at(0).at(0).value<TraceArea>();
        QVERIFY(selected.end_ns > selected.start_ns);
        QVERIFY(!selected.lanes.empty());
        QVERIFY(timeline->area());
        QVERIFY(shown.wait(kQueryTimeoutMs));
        QVERIFY(view.areaShown());
        // The panel's tables are the core summary's.
        const AreaSummary expected = summarizeArea(*trace, selected, nullptr);
        const AreaSummary* s = view.areaPanel()->summary();
        QVERIFY(s);
        QCOMPARE(s->events, expected.events);
        QCOMPARE(int(view.areaPanel()->model(AreaPanel::Names)->rowCount()),
                 int(expected.overall.size()));
        for (int t = 0; t < view.areaPanel()->tableCount(); ++t)
            QAbstractItemModelTester tester(view.areaPanel()->model(t),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        // A row picks its events: they stay, the others dim.
        emit view.areaPanel()->rowActivated(AreaPanel::Names, 0);
        QVERIFY(timeline->focusShown());
        QCOMPARE(timeline->selectedEvent(), s->overall.front().events.front());
        // Esc clears the area, its panel and the focus.
        timeline->setFocus();
        QTest::keyClick(timeline, Qt::Key_Escape);
        QVERIFY(!timeline->area());
        QVERIFY(!timeline->focusShown());
        QVERIFY(!view.areaShown());
    }

    void mSelectsTheAreaOfTheSelectedEvent() {
        TimelineView view;
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto trace = gptTrace();
        view.setTrace(trace, QStringLiteral("gpt"));
        QVERIFY(view.findAndZoom(QStringLiteral("ProfilerStep#")));
        const int32_t step = view.timeline()->selectedEvent();
        QSignalSpy shown(view.areaPanel(), &AreaPanel::summaryShown);
        view.timeline()->setFocus();
        QTest::keyClick(view.timeline(), Qt::Key_M);
        QVERIFY(shown.wait(kQueryTimeoutMs));
        const EventCore& e = trace->events.core(size_t(step));
        QCOMPARE(view.areaPanel()->summary()->area.start_ns, e.start_ns);
        QCOMPARE(view.areaPanel()->summary()->area.end_ns, e.end_ns());
        QCOMPARE(view.areaPanel()->summary()->lanes, trace->lanes.size());
        // The Overview's categories of the step's range add up to it.
        const auto& c = view.areaPanel()->summary()->categories_ns;
        int64_t sum = 0;
        for (size_t r = 0; r + 1 < c.size(); ++r)
            sum += c[r];
        QCOMPARE(sum, c[size_t(GpuRole::Total)]);
        QCOMPARE(view.areaPanel()->model(AreaPanel::Categories)->rowCount(), int(kGpuRoleCount));
    }
};

TRAINSCOPE_WIDGET_TEST(test_query, QueryTest)
#include "test_query.moc"
