#include "timeline/CriticalPathPainter.h"

#include <algorithm>
#include <cmath>

#include <QPainter>

namespace ts::gui {
namespace {

// The middle of an event's row, in content pixels; -1 when it has none.
double rowMiddle(const TimelineLayout& layout, int32_t event) {
    const int row = event >= 0 ? layout.rowOf(event) : -1;
    if (row < 0) return -1;
    return layout.rows()[size_t(row)].y + layout.rowHeight() / 2.0;
}

} // namespace

QColor criticalPathColor() {
    return {220, 30, 60};
}

// Edges wholly left or right of the view are skipped: a frame costs one
// pass over the path's edges (thousands for a step), no allocation.
void paintCriticalPath(QPainter& p, QSize size, const TimelineScene& s) {
    if (!s.critical_path || !s.on_path) return;
    const CpGraph& g = s.critical_path->graph;
    const TimelineLayout& layout = *s.layout;
    const double top = s.scroll_y, bottom = s.scroll_y + size.height() - s.ruler_px;
    const double view_end = s.view.endNs();
    const QColor color = criticalPathColor();
    const Trace& trace = *layout.trace();
    p.setBrush(Qt::NoBrush);
    for (int32_t i : s.critical_path->path.edges) {
        const CpEdge& e = g.edges[size_t(i)];
        const CpNode& from = g.nodes[size_t(e.from)];
        const CpNode& to = g.nodes[size_t(e.to)];
        if (double(std::max(from.t, to.t)) < s.view.start_ns ||
            double(std::min(from.t, to.t)) > view_end)
            continue;
        const double x0 = s.view.xOf(double(from.t)), x1 = s.view.xOf(double(to.t));
        if (e.weight > 0 && e.event >= 0) { // an event's time: a bar at the foot of its row
            const double y = rowMiddle(layout, e.event);
            if (y < top - 20 || y > bottom + 20) continue;
            const double foot = y + layout.rowHeight() / 2.0 - 2;
            p.setPen(QPen(color, 3, Qt::SolidLine, Qt::FlatCap));
            p.drawLine(QPointF(x0, foot), QPointF(std::max(x1, x0 + 1), foot));
            continue;
        }
        const TraceEvent a = trace.events[size_t(from.event)], b = trace.events[size_t(to.event)];
        if (a.lane == b.lane) continue; // order on a thread: the bars show it
        // A launch, a synchronisation, a wait across streams or threads.
        const double y0 = rowMiddle(layout, from.event), y1 = rowMiddle(layout, to.event);
        if (y0 < 0 || y1 < 0 || std::max(y0, y1) < top - 20 || std::min(y0, y1) > bottom + 20)
            continue;
        p.setPen(QPen(color, 1.5, e.weight > 0 ? Qt::SolidLine : Qt::DashLine));
        p.drawLine(QPointF(x0, y0), QPointF(x1, y1));
    }
}

std::vector<uint8_t> eventsOnPath(const Trace& trace, const CriticalPathReport& report) {
    std::vector<uint8_t> on(trace.events.size(), 0);
    const CpGraph& g = report.graph;
    for (int32_t i : report.path.edges) {
        const CpEdge& e = g.edges[size_t(i)];
        for (int32_t node : {e.from, e.to})
            if (g.nodes[size_t(node)].event >= 0) on[size_t(g.nodes[size_t(node)].event)] = 1;
    }
    return on;
}

} // namespace ts::gui
