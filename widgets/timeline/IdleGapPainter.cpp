#include "timeline/IdleGapPainter.h"

#include <algorithm>
#include <cmath>

#include <QObject>
#include <QPainter>

namespace ts::gui {
namespace {

// The gaps of one lane: a slice of IdleBreakdown::gaps, which is sorted by
// (lane, start).
std::pair<const IdleGap*, const IdleGap*> gapsOfLane(const IdleBreakdown& idle, int32_t lane) {
    const IdleGap* begin = idle.gaps.data();
    const IdleGap* end = begin + idle.gaps.size();
    const IdleGap* first =
        std::partition_point(begin, end, [lane](const IdleGap& g) { return g.lane < lane; });
    const IdleGap* last =
        std::partition_point(first, end, [lane](const IdleGap& g) { return g.lane == lane; });
    return {first, last};
}

// The first gap of [first, last) ending after t: the gaps of a stream do not
// overlap, so their ends rise with their starts.
const IdleGap* firstEndingAfter(const IdleGap* first, const IdleGap* last, double t_ns) {
    return std::partition_point(first, last,
                                [t_ns](const IdleGap& g) { return double(g.end) <= t_ns; });
}

} // namespace

QColor idleCauseColor(IdleCause cause) {
    switch (cause) {
    case IdleCause::HostWait:
        return {230, 120, 20, 80};
    case IdleCause::KernelWait:
        return {210, 180, 0, 70};
    case IdleCause::Other:
        break;
    }
    return {130, 100, 200, 70};
}

QString idleCauseTitle(IdleCause cause) {
    switch (cause) {
    case IdleCause::HostWait:
        return QObject::tr("host wait");
    case IdleCause::KernelWait:
        return QObject::tr("kernel wait");
    case IdleCause::Other:
        break;
    }
    return QObject::tr("other");
}

// Gaps narrower than half a pixel are not drawn: a zoomed-out stream shows
// the gaps one can see between its kernels, and a frame costs the gaps in
// view at most.
void paintIdleGaps(QPainter& p, QSize size, const TimelineScene& s) {
    if (!s.idle || s.idle->gaps.empty()) return;
    const TimelineLayout& layout = *s.layout;
    const int bottom = s.scroll_y + size.height() - s.ruler_px;
    for (const TimelineLayout::Lane& lane : layout.lanes()) {
        if (lane.y + lane.height < s.scroll_y || lane.y > bottom) continue;
        const int32_t index = layout.rows()[size_t(lane.first_row)].lane;
        const auto [first, last] = gapsOfLane(*s.idle, index);
        for (const IdleGap* g = firstEndingAfter(first, last, s.view.start_ns);
             g != last && double(g->start) < s.view.endNs(); ++g) {
            const double x0 = std::max(-1.0, s.view.xOf(double(g->start)));
            const double x1 = std::min(double(s.view.width_px) + 1, s.view.xOf(double(g->end)));
            if (x1 - x0 < 0.5) continue;
            const int left = int(std::lround(x0));
            p.fillRect(QRect(left, lane.y, std::max(1, int(std::lround(x1)) - left), lane.height),
                       idleCauseColor(g->cause));
        }
    }
}

const IdleGap* idleGapAt(const IdleBreakdown& idle, int32_t lane, double t_ns) {
    const auto [first, last] = gapsOfLane(idle, lane);
    const IdleGap* g = firstEndingAfter(first, last, t_ns);
    return g != last && double(g->start) <= t_ns ? g : nullptr;
}

} // namespace ts::gui
