// The Distributed tab at 1,024 ranks (issue #66): from the ranks' summaries
// (synthetic, tests/widgets/SyntheticRanks.h: 1,024 ranks of 1,000 steps,
// rank 517 computing 1.5x), the time to merge them into the view, to show
// the tab (setSpans, then the first frame drawn offscreen), and the heat
// map's frame times while zooming and panning, with the frames per second
// they allow (target: the tab in under 1 s, the heat map at 60 fps).
//   bench_distributed_view [--ranks N] [--steps S] [--frames F]
#include <algorithm>
#include <cstdio>
#include <memory>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>

#include "SyntheticRanks.h"
#include "analysis/DistributedView.h"
#include "ranks/RankHeatMap.h"
#include "ranks/RanksView.h"

using namespace ts;
using namespace ts::gui;

namespace {

double msSince(const QElapsedTimer& timer) {
    return double(timer.nsecsElapsed()) / 1e6;
}

int option(const QCommandLineParser& parser, const char* name, int fallback) {
    bool ok = false;
    const int value = parser.value(QString::fromLatin1(name)).toInt(&ok);
    return ok && value > 0 ? value : fallback;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("ranks"), QStringLiteral("ranks"), QStringLiteral("N")});
    parser.addOption(
        {QStringLiteral("steps"), QStringLiteral("steps per rank"), QStringLiteral("S")});
    parser.addOption(
        {QStringLiteral("frames"), QStringLiteral("heat map frames"), QStringLiteral("F")});
    parser.process(app);
    const int ranks = option(parser, "ranks", 1024), steps = option(parser, "steps", 1000);
    const int frames = option(parser, "frames", 240);

    QElapsedTimer timer;
    timer.start();
    std::vector<RankTraceSummary> summaries =
        testing::syntheticRankSummaries(size_t(ranks), size_t(steps), ranks / 2 + 5);
    const double made_ms = msSince(timer);
    timer.restart();
    auto views = std::make_shared<std::vector<DistributedView>>();
    views->push_back(computeDistributedView(std::move(summaries), GpuAnalysisOptions{}));
    const double merged_ms = msSince(timer);

    RanksView view;
    view.resize(1600, 1000);
    timer.restart();
    view.setSpans(views, QStringLiteral("/bench/ranks"));
    const double set_ms = msSince(timer);
    timer.restart();
    const QPixmap first = view.grab(); // lays out and draws every child once
    const double drawn_ms = msSince(timer);

    RankHeatMap* heat = view.heatMap();
    heat->resize(1200, 600);
    const QRect area = heat->cellArea();
    QImage canvas(heat->size(), QImage::Format_RGB32);
    for (int f = 0; f < frames; ++f) {
        const QPointF at(area.left() + (f * 37 % 100) / 100.0 * area.width(),
                         area.top() + (f * 53 % 100) / 100.0 * area.height());
        if (f % 40 < 20)
            heat->zoom(f % 40 < 10 ? 1.25 : 0.8, at);
        else
            heat->pan(f % 2 ? 3 : -2, f % 3 ? 7 : -5);
        heat->render(&canvas);
    }
    const FrameMeter& meter = heat->frameMeter();
    std::printf("Distributed tab, %d ranks x %d steps (offscreen, %s)\n", ranks, steps,
                qPrintable(QGuiApplication::platformName()));
    std::printf("  summaries made             %8.1f ms (synthetic, not measured)\n", made_ms);
    std::printf("  view merged from summaries %8.1f ms\n", merged_ms);
    std::printf("  tab filled (setSpans)      %8.1f ms\n", set_ms);
    std::printf("  first frame drawn          %8.1f ms\n", drawn_ms);
    std::printf("  shown in all               %8.1f ms (target < 1000)\n",
                merged_ms + set_ms + drawn_ms);
    std::printf("  heat map frame, %d frames zooming and panning: median %.2f ms, p95 %.2f ms, "
                "max %.2f ms -> %.0f fps at p95 (target 60)\n",
                meter.count(), meter.median(), meter.p95(), meter.max(),
                meter.p95() > 0 ? 1000.0 / meter.p95() : 0.0);
    return first.isNull() ? 1 : 0;
}
