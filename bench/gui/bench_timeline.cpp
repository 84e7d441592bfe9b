// Frame times of the timeline on a synthetic trace (default 1,000,000 events):
// for several zoom levels, renders frames while panning, exactly as the widget
// paints them (layout + painter into a 1600x900 image), and prints median,
// p95 and max frame milliseconds; then the memory per event (store, layout,
// peak RSS) and the time of a search by name (issue #14: 100 M events at
// <= 64 B each, <= 16 ms p95 per frame, search <= 1 s; 10 M: <= 200 ms).
//   bench_timeline [--events N] [--frames F] [--lanes L] [--plain]
// --plain: events with names and times only, as most of a Kineto trace's;
// by default operators carry FLOPs, shapes and sequence numbers, as
// Trainscope's own profiler records them.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <sys/resource.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include "SyntheticTrace.h"
#include "common/FrameMeter.h"
#include "timeline/TimelineLayout.h"
#include "timeline/TimelinePainter.h"
#include "timeline/TimelineSearch.h"

using namespace ts;
using namespace ts::gui;

namespace {

constexpr int kWidth = 1600;
constexpr int kHeight = 900;

double msSince(const QElapsedTimer& timer) {
    return double(timer.nsecsElapsed()) / 1e6;
}

double peakRssMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // kB on Linux
}

// Median of three searches for `query`, in ms; `found` gets the match count.
double searchMs(const Trace& trace, const char* query, size_t& found) {
    std::vector<double> times;
    for (int r = 0; r < 3; ++r) {
        TimelineSearch search;
        QElapsedTimer timer;
        timer.start();
        found = search.run(trace, query);
        times.push_back(msSince(timer));
    }
    std::sort(times.begin(), times.end());
    return times[1];
}

struct Level {
    const char* name;
    double fraction; // of the trace span that is visible
};

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QCommandLineParser parser;
    const QCommandLineOption events_opt("events", "Events in the synthetic trace.", "N", "1000000");
    const QCommandLineOption frames_opt("frames", "Frames per zoom level.", "F", "30");
    const QCommandLineOption lanes_opt("lanes", "Thread lanes.", "L", "8");
    const QCommandLineOption plain_opt("plain", "Events with names and times only.");
    const QCommandLineOption exact_opt("exact", "No level of detail: narrow events grouped by "
                                                "exact pixel column at every zoom.");
    parser.addOptions({events_opt, frames_opt, lanes_opt, plain_opt, exact_opt});
    parser.addHelpOption();
    parser.process(app);
    const int64_t events = parser.value(events_opt).toLongLong();
    const int frames = std::max(1, parser.value(frames_opt).toInt());
    const int lanes = std::max(1, parser.value(lanes_opt).toInt());

    QElapsedTimer timer;
    timer.start();
    testing::SyntheticTraceSpec spec{events, lanes, 11};
    spec.op_fields = !parser.isSet(plain_opt);
    auto trace = std::make_shared<const Trace>(testing::makeSyntheticTrace(spec));
    std::printf("trace: %zu events, %zu lanes, generated in %.0f ms\n", trace->events.size(),
                trace->lanes.size(), msSince(timer));
    timer.restart();
    TimelineLayout layout;
    layout.setRowHeight(QFontMetrics(app.font()).height() + 6);
    layout.setTrace(trace);
    layout.setLevelOfDetail(!parser.isSet(exact_opt));
    std::printf("layout: %zu rows, built in %.0f ms\n", layout.rows().size(), msSince(timer));

    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    TimelinePainter painter;
    painter.prepare(*trace, app.palette());
    TimelineScene scene;
    scene.layout = &layout;
    scene.gutter_px = 160;
    scene.ruler_px = 2 * QFontMetrics(app.font()).height() + 6;
    scene.view.setBounds(double(layout.startNs()), double(layout.endNs()));
    scene.view.setWidth(kWidth - scene.gutter_px);

    const Level levels[] = {{"whole trace", 1.0}, {"1/10", 0.1},     {"1/100", 0.01},
                            {"1/1000", 1e-3},     {"1/10000", 1e-4}, {"1/100000", 1e-5}};
    std::printf("%-12s %12s %8s %10s %10s %10s %14s\n", "zoom", "visible", "boxes", "median ms",
                "p95 ms", "max ms", "of which boxes");
    double worst_p95 = 0;
    bool drew_everywhere = true;
    for (const Level& level : levels) {
        scene.view.fit();
        const double span = double(layout.endNs() - layout.startNs());
        const double mid = double(layout.startNs()) + span / 2;
        scene.view.show(mid - span * level.fraction / 2, mid + span * level.fraction / 2, 0.0);
        FrameMeter meter, collect;
        std::vector<TimelineLayout::Box> scratch;
        int boxes = 0;
        for (int f = 0; f < frames; ++f) {
            scene.view.panPx(f % 2 ? 37 : -41); // as while dragging
            timer.restart();
            layout.collectBoxes(scene.view, 0, kHeight, scratch); // the box search alone
            collect.record(msSince(timer));
            timer.restart();
            QPainter p(&image);
            painter.paint(p, image.size(), scene, app.palette());
            p.end();
            meter.record(msSince(timer));
            boxes = painter.lastBoxCount();
        }
        worst_p95 = std::max(worst_p95, meter.p95());
        drew_everywhere = drew_everywhere && boxes > 0;
        std::printf("%-12s %9.3f ms %8d %10.2f %10.2f %10.2f %11.2f ms\n", level.name,
                    scene.view.visibleNs() / 1e6, boxes, meter.median(), meter.p95(), meter.max(),
                    collect.median());
    }
    timer.restart();
    int hits = 0;
    scene.view.fit();
    for (int i = 0; i < 10000; ++i)
        hits += layout.hitTest(scene.view, (i * 7919) % (kWidth - 160),
                               (i * 104729) % layout.contentHeight(), 3) >= 0;
    std::printf("hit test: %.2f µs per call (%d hits of 10000)\n", msSince(timer) * 1000.0 / 10000,
                hits);
    std::printf("worst p95 frame: %.2f ms\n", worst_p95);
    const double n = double(std::max<size_t>(1, trace->events.size()));
    std::printf("memory: event store %.1f B/event, layout %.1f B/event, peak RSS %.0f MB "
                "(%.1f B/event)\n",
                double(trace->events.memoryBytes()) / n, double(layout.memoryBytes()) / n,
                peakRssMb(), peakRssMb() * 1048576.0 / n);
    const EventStore::MemoryParts parts = trace->events.memoryParts();
    std::printf("event store by part, B/event: core %.1f, ids %.1f, op fields %.1f, rare %.1f, "
                "maps %.1f, other %.1f\n",
                double(parts.core) / n, double(parts.ids) / n, double(parts.op) / n,
                double(parts.rare) / n, double(parts.maps) / n,
                double(parts.signatures + parts.launches + parts.costs + parts.memory) / n);
    for (const char* query : {"aten::mm", "backward", "aten::"}) {
        size_t found = 0;
        const double ms = searchMs(*trace, query, found);
        std::printf("search \"%s\": %zu matches, %.0f ms (median of 3)\n", query, found, ms);
    }
    if (!drew_everywhere) std::fprintf(stderr, "bench_timeline: a zoom level drew nothing.\n");
    return drew_everywhere ? 0 : 1;
}
