// Frame times of the timeline on a synthetic trace (default 1,000,000 events):
// for several zoom levels, renders frames while panning, exactly as the widget
// paints them (layout + painter into a 1600x900 image), and prints median,
// p95 and max frame milliseconds.
//   bench_timeline [--events N] [--frames F] [--lanes L]
#include <cstdio>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include "SyntheticTrace.h"
#include "common/FrameMeter.h"
#include "timeline/TimelineLayout.h"
#include "timeline/TimelinePainter.h"

using namespace ts;
using namespace ts::gui;

namespace {

constexpr int kWidth = 1600;
constexpr int kHeight = 900;

double msSince(const QElapsedTimer& timer) {
    return double(timer.nsecsElapsed()) / 1e6;
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
    parser.addOptions({events_opt, frames_opt, lanes_opt});
    parser.addHelpOption();
    parser.process(app);
    const int64_t events = parser.value(events_opt).toLongLong();
    const int frames = std::max(1, parser.value(frames_opt).toInt());
    const int lanes = std::max(1, parser.value(lanes_opt).toInt());

    QElapsedTimer timer;
    timer.start();
    auto trace = std::make_shared<const Trace>(testing::makeSyntheticTrace({events, lanes, 11}));
    std::printf("trace: %zu events, %zu lanes, generated in %.0f ms\n", trace->events.size(),
                trace->lanes.size(), msSince(timer));
    timer.restart();
    TimelineLayout layout;
    layout.setRowHeight(QFontMetrics(app.font()).height() + 6);
    layout.setTrace(trace);
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
    if (!drew_everywhere) std::fprintf(stderr, "bench_timeline: a zoom level drew nothing.\n");
    return drew_everywhere ? 0 : 1;
}
