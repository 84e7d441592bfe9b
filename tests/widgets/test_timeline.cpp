// Timeline maths: viewport zoom/pan, layout rows, box merging under one
// pixel, hit testing, search, details; and the widget's mouse and keys.
#include <functional>
#include <random>
#include <tuple>

#include <QTextBrowser>
#include <QtTest>

#include "SyntheticTrace.h"
#include "TestPaths.h"
#include "WidgetTests.h"
#include "timeline/EventDetails.h"
#include "timeline/TimelineLayout.h"
#include "timeline/TimelineSearch.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "trace/ChromeTraceReader.h"

using namespace ts;
using namespace ts::gui;

namespace {

int32_t findEvent(const Trace& trace, const std::string& name) {
    for (size_t i = 0; i < trace.events.size(); ++i)
        if (trace.nameOf(trace.events[i]) == name) return int32_t(i);
    return -1;
}

TimelineViewport viewport(double start, double ns_per_px, int width, double lo, double hi) {
    TimelineViewport v;
    v.setBounds(lo, hi);
    v.width_px = width;
    v.start_ns = start;
    v.ns_per_px = ns_per_px;
    return v;
}

// One row of `count` events one after the other: next() gives each one's
// gap before it and its duration; `at` ends at the last event's end.
std::shared_ptr<const Trace> oneRow(int count, int64_t& at,
                                    const std::function<std::pair<int64_t, int64_t>()>& next) {
    Trace t;
    const int32_t lane = t.laneFor(1, false, "main");
    for (int i = 0; i < count; ++i) {
        const auto [gap, dur] = next();
        TraceEvent e;
        e.name = t.internName("op");
        e.lane = lane;
        e.start_ns = at + gap;
        e.dur_ns = dur;
        at = e.start_ns + dur;
        t.events.push_back(e);
    }
    t.finalize();
    return std::make_shared<const Trace>(std::move(t));
}

} // namespace

class TimelineTest : public QObject {
    Q_OBJECT
private slots:
    void viewportMapsTimeToPixels() {
        const TimelineViewport v = viewport(1000, 10, 500, 0, 100000);
        QCOMPARE(v.xOf(1000), 0.0);
        QCOMPARE(v.xOf(1500), 50.0);
        QCOMPARE(v.timeAt(50), 1500.0);
        QCOMPARE(v.endNs(), 6000.0);
    }

    void zoomKeepsTheTimeUnderTheCursor() {
        TimelineViewport v = viewport(1000, 10, 500, 0, 100000);
        const double anchor = v.timeAt(200);
        v.zoomAt(200, 4.0);
        QCOMPARE(v.ns_per_px, 2.5);
        QVERIFY(qAbs(v.timeAt(200) - anchor) < 1e-6);
        v.zoomAt(120, 0.5);
        QCOMPARE(v.ns_per_px, 5.0);
    }

    void zoomIsClamped() {
        TimelineViewport v = viewport(0, 10, 1000, 0, 100000);
        v.zoomAt(500, 1e12);
        QCOMPARE(v.ns_per_px, TimelineViewport::kMinNsPerPx);
        v.zoomAt(500, 1e-12);
        QCOMPARE(v.ns_per_px, v.maxNsPerPx());
        QVERIFY(v.visibleNs() >= 100000);
        QVERIFY(v.start_ns <= 0 && v.endNs() >= 100000);
    }

    void panStaysOnTheTrace() {
        TimelineViewport v = viewport(50000, 10, 1000, 0, 100000);
        v.panPx(100); // drag right: earlier times come in
        QCOMPARE(v.start_ns, 49000.0);
        v.panPx(1e9);
        QVERIFY(v.start_ns >= -100000 * 0.05);
        v.panPx(-1e9);
        QVERIFY(v.endNs() <= 100000 * 1.05);
    }

    void fitAndShow() {
        TimelineViewport v;
        v.setBounds(1000, 11000);
        v.setWidth(1000);
        v.fit();
        QVERIFY(v.start_ns < 1000 && v.endNs() > 11000);
        v.show(2000, 3000, 0.0);
        QVERIFY(qAbs(v.start_ns - 2000) < 1e-6);
        QVERIFY(qAbs(v.endNs() - 3000) < 1e-6);
    }

    void layoutHasOneRowPerDepth() {
        auto trace = std::make_shared<const Trace>(testing::makeTinyTrace());
        TimelineLayout layout;
        layout.setRowHeight(20);
        layout.setTrace(trace);
        QCOMPARE(int(layout.lanes().size()), 2);
        QCOMPARE(layout.lanes()[0].row_count, 3); // step > conv2d > mm
        QCOMPARE(layout.lanes()[1].row_count, 1);
        QCOMPARE(layout.lanes()[1].y, 3 * 20 + TimelineLayout::kLaneGap);
        QCOMPARE(layout.startNs(), int64_t(0));
        QCOMPARE(layout.endNs(), int64_t(2000));
        QCOMPARE(layout.rowAt(5), 0);
        QCOMPARE(layout.rowAt(45), 2);
        QCOMPARE(layout.rowAt(61), -1); // the gap between lanes
        QCOMPARE(layout.rowAt(70), 3);
        QCOMPARE(layout.rowOf(findEvent(*trace, "aten::mm")), 2);
    }

    void layoutSummariesMatchABruteForceScanInAnyStoreOrder() {
        // The layout fills its rows in one pass in store order and sorts a
        // row only when it finds it out of start order. A finalized trace
        // (store in start order) and the same events stored shuffled, without
        // finalize, must both give rows in start order with the running
        // latest end, the sampled starts and the blocks of a plain scan.
        std::mt19937 rng(11);
        std::vector<TraceEvent> events;
        Trace sorted;
        const int32_t lanes[2] = {sorted.laneFor(1, false, "a"), sorted.laneFor(2, false, "b")};
        for (int i = 0; i < 3000; ++i) {
            TraceEvent e;
            e.name = sorted.internName("op");
            e.lane = lanes[rng() % 2];
            e.start_ns = int64_t(rng() % 1000000);
            e.dur_ns = 1 + int64_t(rng() % 5000);
            e.depth = int16_t(rng() % 3);
            events.push_back(e);
        }
        Trace shuffled = sorted; // the same lanes and names
        for (const TraceEvent& e : events)
            shuffled.events.push_back(e);
        std::sort(events.begin(), events.end(), [](const TraceEvent& a, const TraceEvent& b) {
            return std::tie(a.lane, a.start_ns) < std::tie(b.lane, b.start_ns);
        });
        for (const TraceEvent& e : events)
            sorted.events.push_back(e);
        for (const Trace* trace : {&sorted, &shuffled}) {
            TimelineLayout layout;
            layout.setTrace(std::make_shared<const Trace>(*trace));
            const Trace& t = *layout.trace();
            QCOMPARE(int(layout.rows().size()), 6);
            size_t total = 0;
            for (const TimelineLayout::Row& row : layout.rows()) {
                total += row.ids.size();
                QCOMPARE(row.max_end.size(), row.ids.size());
                int64_t running = INT64_MIN;
                std::vector<int64_t> sampled, block_start, block_end;
                for (size_t i = 0; i < row.ids.size(); ++i) {
                    const EventCore& e = t.events.core(size_t(row.ids[i]));
                    QCOMPARE(int(e.lane), row.lane);
                    QCOMPARE(int(e.depth), row.depth);
                    if (i > 0)
                        QVERIFY(t.events.core(size_t(row.ids[i - 1])).start_ns <= e.start_ns);
                    running = std::max(running, e.end_ns());
                    QCOMPARE(row.max_end[i], running);
                    if (i % TimelineLayout::kSampleStride == 0) sampled.push_back(e.start_ns);
                    if (i % TimelineLayout::kBlock == 0) block_start.push_back(e.start_ns);
                    if (i % TimelineLayout::kBlock == TimelineLayout::kBlock - 1 ||
                        i + 1 == row.ids.size())
                        block_end.push_back(running);
                }
                QCOMPARE(row.sampled_start, sampled);
                QCOMPARE(row.block_start, block_start);
                QCOMPARE(row.block_end, block_end);
            }
            QCOMPARE(total, t.events.size());
        }
    }

    void traceDrawnOnceForEachTraceSet() {
        // --timings and bench_trace_import --gui time the first frame of a
        // trace by this signal: once per setTrace, not per repaint, and never
        // for the empty timeline.
        auto trace = std::make_shared<const Trace>(testing::makeTinyTrace());
        TimelineWidget widget;
        widget.resize(600, 300);
        QSignalSpy drawn(&widget, &TimelineWidget::traceDrawn);
        widget.grab();
        QCOMPARE(drawn.count(), 0);
        widget.setTrace(trace);
        widget.grab();
        widget.grab();
        QCOMPARE(drawn.count(), 1);
        widget.setTrace(trace);
        widget.grab();
        QCOMPARE(drawn.count(), 2);
    }

    void hitTestFindsTheInnermostEvent() {
        auto trace = std::make_shared<const Trace>(testing::makeTinyTrace());
        TimelineLayout layout;
        layout.setRowHeight(20);
        layout.setTrace(trace);
        const TimelineViewport v = viewport(0, 1, 2000, 0, 2000); // 1 ns per pixel
        QCOMPARE(layout.hitTest(v, 200, 45, 3), findEvent(*trace, "aten::mm"));
        QCOMPARE(layout.hitTest(v, 200, 25, 3), findEvent(*trace, "aten::conv2d"));
        QCOMPARE(layout.hitTest(v, 200, 5, 3), findEvent(*trace, "step"));
        QCOMPARE(layout.hitTest(v, 450, 25, 3), -1); // between conv2d and relu
        QCOMPARE(layout.hitTest(v, 402, 25, 3),
                 findEvent(*trace, "aten::conv2d")); // within tolerance
        QCOMPARE(layout.hitTest(v, 1500, 5, 3), -1); // after the step
        QCOMPARE(layout.hitTest(v, 1500, 70, 3), findEvent(*trace, "worker"));
        QCOMPARE(layout.hitTest(v, 200, 61, 3), -1); // lane gap
    }

    void eventsUnderOnePixelAreMerged() {
        // 100 events of 10 ns every 20 ns: at 1000 ns per pixel, 50 share each pixel.
        Trace t;
        const int32_t lane = t.laneFor(1, false, "main");
        for (int i = 0; i < 100; ++i) {
            TraceEvent e;
            e.name = t.internName("aten::add");
            e.lane = lane;
            e.start_ns = i * 20;
            e.dur_ns = 10;
            t.events.push_back(e);
        }
        t.finalize();
        TimelineLayout layout;
        layout.setTrace(std::make_shared<const Trace>(std::move(t)));
        std::vector<TimelineLayout::Box> boxes;
        layout.collectBoxes(viewport(0, 1000, 100, 0, 2000), 0, 1000, boxes);
        QCOMPARE(int(boxes.size()), 1); // pixels 0 and 1, merged, then joined into one run
        QCOMPARE(boxes[0].merged, 100);
        QVERIFY(boxes[0].narrow);
        QCOMPARE(boxes[0].x0, 0.0f);
        QCOMPARE(boxes[0].x1, 2.0f);
        layout.collectBoxes(viewport(0, 1, 4000, 0, 2000), 0, 1000, boxes);
        QCOMPARE(int(boxes.size()), 100); // 10 px each: drawn one by one
        QCOMPARE(boxes[3].x0, 60.0f);
        QCOMPARE(boxes[3].x1, 70.0f);
        layout.collectBoxes(viewport(500, 1, 100, 0, 2000), 0, 1000, boxes);
        QCOMPARE(int(boxes.size()), 5); // only what is visible: 500..600
    }

    void boxCountIsBoundedByPixelsOnAMillionEvents() {
        auto trace = std::make_shared<const Trace>(testing::makeSyntheticTrace({200000, 4, 3}));
        TimelineLayout layout;
        layout.setTrace(trace);
        TimelineViewport v;
        v.setBounds(double(layout.startNs()), double(layout.endNs()));
        v.setWidth(1000);
        v.fit();
        std::vector<TimelineLayout::Box> boxes;
        layout.collectBoxes(v, 0, 1e9, boxes);
        QVERIFY(!boxes.empty());
        QVERIFY2(boxes.size() <= layout.rows().size() * 1002,
                 qPrintable(QString::number(boxes.size())));
        int64_t covered = 0;
        for (const auto& b : boxes)
            covered += b.merged;
        QCOMPARE(covered, int64_t(trace->events.size())); // every event is drawn, merged or not
    }

    void boxesAccountForEveryVisibleEventAtAnyZoom() {
        // One row of 5,000 events of mixed widths: at every zoom and offset the
        // boxes (wide ones alone, narrow ones merged per pixel column) count
        // each visible event exactly once and run left to right. The search
        // through the row's sampled starts must neither skip nor repeat one.
        std::mt19937 rng(7);
        int64_t at = 0;
        auto trace = oneRow(5000, at, [&] {
            const int64_t gap = int64_t(rng() % 50);
            return std::make_pair(gap, rng() % 20 == 0 ? 5000 : 1 + int64_t(rng() % 200));
        });
        TimelineLayout layout;
        layout.setTrace(trace);
        std::vector<TimelineLayout::Box> boxes;
        for (double ns_per_px : {0.5, 3.0, 40.0, 700.0, 9000.0}) {
            for (double start : {-100.0, 0.0, 12345.0, double(at) * 0.37, double(at) - 2000}) {
                const TimelineViewport v = viewport(start, ns_per_px, 800, 0, double(at));
                layout.collectBoxes(v, 0, 1000, boxes);
                int64_t expected = 0;
                for (size_t i = 0; i < trace->events.size(); ++i) {
                    const EventCore& e = trace->events.core(i);
                    expected += double(e.end_ns()) >= v.start_ns && double(e.start_ns) < v.endNs();
                }
                int64_t covered = 0;
                float last_x0 = -1e9f;
                for (const auto& b : boxes) {
                    covered += b.merged;
                    QVERIFY(b.x0 >= last_x0);
                    last_x0 = b.x0;
                }
                QVERIFY2(covered == expected,
                         qPrintable(QStringLiteral("%1 ns/px from %2: %3 of %4")
                                        .arg(ns_per_px)
                                        .arg(start)
                                        .arg(covered)
                                        .arg(expected)));
            }
        }
    }

    void levelOfDetailDrawsTheSamePixelsAsExactColumns() {
        // 200,000 events on one row seen whole at 800 px (250 per pixel):
        // the coarse walk over block starts groups events differently near
        // column edges but must count each visible event once, keep boxes
        // in order and cover exactly the pixel columns the exact walk covers.
        std::mt19937 rng(11);
        int64_t at = 0;
        auto trace = oneRow(200000, at, [&] {
            const int64_t gap = rng() % 1000 == 0 ? 2000000 : int64_t(rng() % 40); // a few gaps
            return std::make_pair(gap, rng() % 5000 == 0 ? 400000 : 1 + int64_t(rng() % 30));
        });
        TimelineLayout coarse, exact;
        coarse.setTrace(trace);
        exact.setTrace(trace);
        exact.setLevelOfDetail(false);
        auto pixels = [](const std::vector<TimelineLayout::Box>& boxes, int width) {
            std::vector<char> on(size_t(width + 2), 0);
            for (const auto& b : boxes)
                for (int x = std::max(-1, int(std::floor(b.x0))); x < int(std::ceil(b.x1)); ++x)
                    if (x >= -1 && x <= width) on[size_t(x + 1)] = 1;
            return on;
        };
        std::vector<TimelineLayout::Box> a, b;
        const double span = double(at);
        for (double fraction : {1.0, 0.5, 0.1}) {
            for (double offset : {-1000.0, span * 0.3}) {
                const TimelineViewport v =
                    viewport(offset, span * fraction / 800, 800, 0, double(at));
                coarse.collectBoxes(v, 0, 1000, a);
                exact.collectBoxes(v, 0, 1000, b);
                int64_t ca = 0, cb = 0;
                float last_x0 = -1e9f;
                for (const auto& box : a) {
                    ca += box.merged;
                    QVERIFY(box.x0 >= last_x0);
                    last_x0 = box.x0;
                }
                for (const auto& box : b)
                    cb += box.merged;
                QCOMPARE(ca, cb);
                QVERIFY2(a.size() <= b.size(), "the coarse walk adds no boxes");
                QVERIFY2(
                    pixels(a, 800) == pixels(b, 800),
                    qPrintable(QStringLiteral("fraction %1 offset %2").arg(fraction).arg(offset)));
            }
        }
    }

    void searchStepsThroughMatchesInTime() {
        const Trace trace = testing::makeTinyTrace();
        TimelineSearch search;
        QCOMPARE(search.run(trace, "ATEN::"), size_t(3));
        QCOMPARE(search.count(), size_t(3));
        const int32_t conv = findEvent(trace, "aten::conv2d");
        const int32_t relu = findEvent(trace, "aten::relu");
        QCOMPARE(search.next(trace, -1), conv);
        QCOMPARE(search.next(trace, 150), relu);
        QCOMPARE(search.next(trace, 600), conv);     // wraps
        QCOMPARE(search.previous(trace, 100), relu); // wraps backwards
        QCOMPARE(search.indexOf(trace, relu), 2);
        QCOMPARE(search.indexOf(trace, findEvent(trace, "step")), -1);
        QVERIFY(search.nameMatches()[trace.events[size_t(conv)].name]);
        QCOMPARE(search.run(trace, "nothing"), size_t(0));
        QCOMPARE(search.next(trace, 0), -1);
    }

    void searchAgreesWithOneTimeOrderedListOnManyLanes() {
        // 1.2 M events on 4 lanes (scanned in parallel stretches; lanes start
        // together, so starts tie across lanes): stepping and ranking over the
        // per-lane runs must give what one stable time-ordered list gives.
        const Trace trace = testing::makeSyntheticTrace({1200000, 4, 5});
        TimelineSearch search;
        const size_t found = search.run(trace, "BACKWARD");
        std::vector<int32_t> ordered;
        for (size_t i = 0; i < trace.events.size(); ++i)
            if (QString::fromStdString(trace.nameOf(trace.events[i]))
                    .contains(QLatin1String("backward"), Qt::CaseInsensitive))
                ordered.push_back(int32_t(i));
        auto start = [&](int32_t id) { return trace.events.core(size_t(id)).start_ns; };
        std::stable_sort(ordered.begin(), ordered.end(),
                         [&](int32_t a, int32_t b) { return start(a) < start(b); });
        QCOMPARE(found, ordered.size());
        QVERIFY(found > 1000);
        for (size_t k = 0; k < ordered.size(); k += ordered.size() / 97) {
            QCOMPARE(search.indexOf(trace, ordered[k]), int64_t(k));
            const double t = double(start(ordered[k]));
            const auto after =
                std::upper_bound(ordered.begin(), ordered.end(), t,
                                 [&](double v, int32_t id) { return v < start(id); });
            QCOMPARE(search.next(trace, t), after == ordered.end() ? ordered.front() : *after);
            const auto before =
                std::lower_bound(ordered.begin(), ordered.end(), t,
                                 [&](int32_t id, double v) { return double(start(id)) < v; });
            QCOMPARE(search.previous(trace, t),
                     before == ordered.begin() ? ordered.back() : *std::prev(before));
        }
        QCOMPARE(search.indexOf(trace, ordered.back()), int64_t(ordered.size() - 1));
        QCOMPARE(search.next(trace, double(start(ordered.back()))), ordered.front());
        QCOMPARE(search.previous(trace, double(start(ordered.front()))), ordered.back());
    }

    void detailsShowShapesFlopsAndLinks() {
        auto trace = std::make_shared<const Trace>(testing::makeTinyTrace());
        TimelineLayout layout;
        layout.setTrace(trace);
        const int32_t conv = findEvent(*trace, "aten::conv2d");
        const int32_t backward = findEvent(*trace, "ConvolutionBackward0");
        QCOMPARE(trace->events[size_t(conv)].link, backward);
        const QString html = eventDetailsHtml(layout, conv);
        QVERIFY(html.contains(QStringLiteral("[[16, 3, 32, 32], [64, 3, 3, 3]]")));
        QVERIFY(html.contains(QStringLiteral("3.00 MFLOP")));
        QVERIFY(html.contains(QStringLiteral("300 ns")));
        QVERIFY(html.contains(QStringLiteral("200 ns (1 children)"))); // self time: 300 - mm's 100
        QVERIFY(html.contains(QStringLiteral("event:%1").arg(backward)));
        QCOMPARE(eventFromLink(QStringLiteral("event:%1").arg(backward)), backward);
        QCOMPARE(eventFromLink(QStringLiteral("https://example.org")), -1);
    }

    void widgetSelectsZoomsAndPans() {
        TimelineWidget widget;
        widget.resize(1000, 400);
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        auto trace = std::make_shared<const Trace>(testing::makeTinyTrace());
        widget.setTrace(trace);
        const int32_t conv = findEvent(*trace, "aten::conv2d");
        QSignalSpy selected(&widget, &TimelineWidget::eventSelected);
        QTest::mouseClick(&widget, Qt::LeftButton, {}, widget.eventCenter(conv).toPoint());
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).value<int32_t>(), conv);

        const double before = widget.viewport().ns_per_px;
        QTest::keyClick(&widget, Qt::Key_W);
        QVERIFY(widget.viewport().ns_per_px < before);
        QTest::keyClick(&widget, Qt::Key_S);
        QVERIFY(qAbs(widget.viewport().ns_per_px - before) < 1e-9);
        QTest::keyClick(&widget, Qt::Key_F); // zoom to the selection
        QVERIFY(widget.viewport().start_ns <= 100 && widget.viewport().endNs() >= 400);
        QVERIFY(widget.viewport().visibleNs() < 500);
        const double start = widget.viewport().start_ns;
        QTest::keyClick(&widget, Qt::Key_D);
        QVERIFY(widget.viewport().start_ns > start);
        QTest::keyClick(&widget, Qt::Key_A);
        QVERIFY(qAbs(widget.viewport().start_ns - start) < 1e-6);

        // Dragging pans and does not select.
        const QPoint from = widget.eventCenter(conv).toPoint();
        QTest::mousePress(&widget, Qt::LeftButton, {}, from);
        QTest::mouseMove(&widget, from + QPoint(60, 0));
        QTest::mouseRelease(&widget, Qt::LeftButton, {}, from + QPoint(60, 0));
        QVERIFY(widget.viewport().start_ns < start);
        QCOMPARE(selected.count(), 2); // only the F key's reveal re-selected
        QVERIFY(widget.frameMeter().count() > 0);
    }

    void kinetoTraceGetsCountersArrowsAndLaunchDetails() {
        TimelineView view;
        view.resize(1200, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // tests/data/timeline_launches.json: see tests/torchfree/TimelineTracksTest.cpp.
        auto trace = std::make_shared<const Trace>(readChromeTraceFile(
            std::string(TRAINSCOPE_SOURCE_DIR) + "/tests/data/timeline_launches.json"));
        view.setTrace(trace, QStringLiteral("kineto"));
        TimelineWidget& widget = *view.timeline();
        const TimelineLayout& layout = widget.layout();
        // GPU 0 utilization, GPU 0 memory, CPU memory; then the lanes below them.
        QCOMPARE(layout.counterRows(), 3);
        QCOMPARE(layout.lanes().front().y, layout.counterY(3));
        QCOMPARE(layout.counterAt(layout.counterY(1) + 3), 1);
        QCOMPARE(layout.counterAt(layout.counterY(1) + layout.counterHeight() + 1), -1);

        const int32_t gemm = findEvent(*trace, "gemm"), mm = findEvent(*trace, "aten::mm");
        const int32_t launch = findEvent(*trace, "cudaLaunchKernel");
        widget.selectEvent(gemm, false);
        QCOMPARE(widget.launchArrows().size(), size_t(1));
        QCOMPARE(widget.launchArrows()[0].first, launch);
        QVERIFY(view.detailsHtml().contains(QStringLiteral("Launched by")));
        QVERIFY(view.detailsHtml().contains(QStringLiteral("60.0 µs"))); // launch delay 80 - 20
        widget.selectEvent(mm, false);
        QCOMPARE(widget.launchArrows().size(), size_t(1));
        QCOMPARE(widget.launchArrows()[0].second, gemm);
        widget.selectEvent(findEvent(*trace, "ProfilerStep#3"), false);
        QCOMPARE(widget.launchArrows().size(), size_t(2)); // not the kernel launched after it
        QVERIFY(view.detailsHtml().contains(QStringLiteral("2 launched")));
        widget.selectEvent(-1, false);
        QVERIFY(widget.launchArrows().empty());
        // Showing another trace and this one again reuses its tracks.
        const TimelineTracks* tracks = widget.tracks();
        view.setTrace(std::make_shared<const Trace>(testing::makeTinyTrace()),
                      QStringLiteral("tiny"));
        QVERIFY(widget.tracks() != tracks);
        view.setTrace(trace, QStringLiteral("kineto"));
        QCOMPARE(widget.tracks(), tracks);
        // Zooming to an operator shows the kernel it launched too (F, --find).
        QVERIFY(view.findAndZoom(QStringLiteral("aten::mm")));
        QCOMPARE(widget.selectedEvent(), mm);
        QVERIFY(widget.viewport().start_ns <= double(trace->events[size_t(mm)].start_ns));
        QVERIFY(widget.viewport().endNs() >= double(trace->events[size_t(gemm)].end_ns()));
        QVERIFY(!view.findAndZoom(QStringLiteral("no such kernel")));
        widget.fitAll();

        // The utilization row is filled where the kernel runs, empty before it.
        const QImage image = widget.grab().toImage();
        const QPointF center = widget.eventCenter(mm); // gives the content -> widget offset
        const double top =
            center.y() - layout.rows()[size_t(layout.rowOf(mm))].y - layout.rowHeight() / 2.0;
        const int y = int(top) + layout.counterY(0) + layout.counterHeight() - 3;
        const int gutter = widget.width() - widget.viewport().width_px;
        const auto pixelAt = [&](int64_t t_ns) {
            return image.pixelColor(QPoint(gutter + int(widget.viewport().xOf(double(t_ns))), y));
        };
        const TraceEvent& kernel = trace->events[size_t(gemm)];
        const QColor busy = pixelAt(kernel.start_ns + kernel.dur_ns / 2);
        const QColor idle = pixelAt(trace->events[size_t(mm)].start_ns);
        QVERIFY2(busy != idle, qPrintable(busy.name() + QLatin1Char(' ') + idle.name()));
        QCOMPARE(pixelAt(kernel.start_ns + kernel.dur_ns / 3), busy);
    }

    void viewSearchSelectsAndShowsDetails() {
        TimelineView view;
        view.resize(1200, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto trace = std::make_shared<const Trace>(testing::makeTinyTrace());
        view.setTrace(trace, QStringLiteral("tiny"));
        view.setSearchText(QStringLiteral("relu"));
        QCOMPARE(view.search().count(), size_t(1));
        view.nextMatch();
        QCOMPARE(view.timeline()->selectedEvent(), findEvent(*trace, "aten::relu"));
        QVERIFY(view.detailsHtml().contains(QStringLiteral("aten::relu")));
    }
};

TRAINSCOPE_WIDGET_TEST(test_timeline, TimelineTest)
#include "test_timeline.moc"
