#include "timeline/AreaPainter.h"

#include <algorithm>
#include <unordered_set>

#include <QPainter>

namespace ts::gui {

void paintArea(QPainter& p, QSize size, const TimelineScene& s, const QPalette& palette) {
    if (!s.area || !s.layout) return;
    const TraceArea& a = *s.area;
    const double x0 = std::max(-2.0, s.view.xOf(double(a.start_ns)));
    const double x1 = std::min(s.view.width_px + 2.0, s.view.xOf(double(a.end_ns)));
    if (x1 < -1 || x0 > s.view.width_px + 1) return;
    QColor fill = palette.color(QPalette::Highlight);
    fill.setAlpha(48);
    const TimelineLayout& layout = *s.layout;
    const std::unordered_set<int32_t> lanes(a.lanes.begin(), a.lanes.end());
    for (const TimelineLayout::Lane& block : layout.lanes()) {
        const int32_t lane = layout.rows()[size_t(block.first_row)].lane;
        if (!lanes.empty() && !lanes.count(lane)) continue;
        p.fillRect(QRectF(x0, block.y, std::max(1.0, x1 - x0), block.height), fill);
    }
    // The edges run over the visible content, whatever the lanes.
    QPen edge(palette.color(QPalette::Highlight));
    edge.setWidth(1);
    p.setPen(edge);
    const double top = s.scroll_y, bottom = s.scroll_y + size.height() - s.ruler_px;
    p.drawLine(QPointF(x0, top), QPointF(x0, bottom));
    p.drawLine(QPointF(x1, top), QPointF(x1, bottom));
}

} // namespace ts::gui
