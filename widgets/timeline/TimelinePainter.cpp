#include "timeline/TimelinePainter.h"

#include <algorithm>
#include <cmath>

#include <QFontMetrics>
#include <QObject>
#include <QPainter>

#include "common/Format.h"
#include "common/ThemePalette.h"
#include "timeline/AreaPainter.h"
#include "timeline/CriticalPathPainter.h"
#include "timeline/IdleGapPainter.h"
#include "timeline/TrackPainter.h"

namespace ts::gui {
namespace {

constexpr int kMinLabelPx = 36; // boxes narrower than this get no name
constexpr double kMinTickPx = 90;

} // namespace

double niceTickNs(double ns_per_px, double min_px) {
    const double raw = ns_per_px * min_px;
    const double decade = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
    for (double m : {1.0, 2.0, 5.0})
        if (m * decade >= raw) return m * decade;
    return 10 * decade;
}

QString timeLabel(double ns, double tick_ns) {
    struct Unit {
        double scale;
        const char* name;
    };
    static const Unit units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
    for (const Unit& u : units) {
        if (tick_ns < u.scale && u.scale > 1) continue;
        const double step = tick_ns / u.scale;
        const int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
        return QString::number(ns / u.scale, 'f', decimals) + QLatin1Char(' ') +
               QString::fromUtf8(u.name);
    }
    return {};
}

void TimelinePainter::prepare(const Trace& trace, const QPalette& palette) {
    colors_.build(trace, isDark(palette));
    names_.clear();
    names_.reserve(trace.names.size());
    for (const std::string& name : trace.names)
        names_.push_back(QString::fromStdString(name));
    name_widths_.assign(trace.names.size(), -1.0f);
}

float TimelinePainter::nameWidth(uint32_t name, const QFontMetrics& metrics) {
    if (name >= name_widths_.size()) return 1e9f;
    float& w = name_widths_[name];
    if (w < 0) w = float(metrics.horizontalAdvance(names_[name]));
    return w;
}

void TimelinePainter::paint(QPainter& p, QSize size, const TimelineScene& s, const QPalette& pal) {
    p.fillRect(QRect(QPoint(0, 0), size), pal.color(QPalette::Base));
    if (!s.layout || !s.layout->trace()) return;
    const QRect tracks(s.gutter_px, s.ruler_px, size.width() - s.gutter_px,
                       size.height() - s.ruler_px);
    p.save();
    p.setClipRect(tracks);
    p.translate(s.gutter_px, s.ruler_px - s.scroll_y);
    paintStepShading(p, size, s, pal);
    paintIdleGaps(p, size, s);
    paintCounterRows(p, s, pal);
    paintBoxes(p, s, pal);
    paintLabels(p, s, pal);
    paintCriticalPath(p, size, s);
    paintArea(p, size, s, pal);
    paintOutline(p, s, s.linked, pal.color(QPalette::Link), Qt::DashLine);
    for (const LaunchPair& launch : s.arrows)
        paintOutline(p, s, launch.second, pal.color(QPalette::Link), Qt::DashLine);
    paintLaunchArrows(p, s, pal);
    paintOutline(p, s, s.selected, pal.color(QPalette::Highlight), Qt::SolidLine);
    p.restore();
    paintGutter(p, size, s, pal);
    paintCounterLabels(p, size, s, pal);
    paintRuler(p, size, s, pal);
}

void TimelinePainter::paintBoxes(QPainter& p, const TimelineScene& s, const QPalette& pal) {
    const TimelineLayout& layout = *s.layout;
    const Trace& trace = *layout.trace();
    const int visible_height = p.device()->height() - s.ruler_px;
    layout.collectBoxes(s.view, s.scroll_y, s.scroll_y + visible_height, boxes_);
    const QColor background = pal.color(QPalette::Base);
    const int h = layout.rowHeight();
    for (const TimelineLayout::Box& box : boxes_) {
        const EventCore& e = trace.events.core(size_t(box.event));
        QColor color = colors_.colorOf(e);
        if (box.merged > 1) color = color.darker(112);
        if (s.name_matches && !(*s.name_matches)[e.name]) color = mixColors(color, background, 3);
        if (s.on_path && !(*s.on_path)[size_t(box.event)]) color = mixColors(color, background, 3);
        if (s.focus && !(*s.focus)[size_t(box.event)]) color = mixColors(color, background, 3);
        // Whole pixels: integer rectangles take the rasteriser's fast path.
        const int x0 = int(std::floor(box.x0));
        const int width = std::max(1, int(std::ceil(box.x1)) - x0);
        p.fillRect(QRect(x0, layout.rows()[size_t(box.row)].y + 1, width, h - 2), color);
    }
}

void TimelinePainter::paintLabels(QPainter& p, const TimelineScene& s, const QPalette& pal) {
    const TimelineLayout& layout = *s.layout;
    const Trace& trace = *layout.trace();
    const QFontMetrics metrics = p.fontMetrics();
    const int h = layout.rowHeight();
    for (const TimelineLayout::Box& box : boxes_) {
        const float x0 = std::max(box.x0, 0.0f);
        const float width = std::min(box.x1, float(s.view.width_px)) - x0;
        if (box.narrow || width < kMinLabelPx) continue;
        const EventCore& e = trace.events.core(size_t(box.event));
        const QColor fill = colors_.colorOf(e);
        const bool dimmed = s.name_matches && !(*s.name_matches)[e.name];
        p.setPen(dimmed                   ? pal.color(QPalette::PlaceholderText)
                 : fill.lightness() > 140 ? QColor(20, 20, 24)
                                          : QColor(245, 245, 245));
        const QRectF rect(x0 + 3, layout.rows()[size_t(box.row)].y, width - 6, h);
        const QString& name = names_[e.name];
        if (nameWidth(e.name, metrics) <= rect.width())
            p.drawText(rect, Qt::AlignVCenter | Qt::AlignLeft, name);
        else
            p.drawText(rect, Qt::AlignVCenter | Qt::AlignLeft,
                       metrics.elidedText(name, Qt::ElideRight, int(rect.width())));
    }
}

void TimelinePainter::paintOutline(QPainter& p, const TimelineScene& s, int32_t event,
                                   const QColor& color, Qt::PenStyle style) const {
    const int row = s.layout->rowOf(event);
    if (row < 0) return;
    const TraceEvent& e = s.layout->trace()->events[size_t(event)];
    const double x0 = std::max(-4.0, s.view.xOf(double(e.start_ns)));
    const double x1 = std::min(s.view.width_px + 4.0, s.view.xOf(double(e.end_ns())));
    const int y = s.layout->rows()[size_t(row)].y;
    p.setPen(QPen(color, 2, style));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(x0, y, std::max(2.0, x1 - x0), s.layout->rowHeight()));
}

void TimelinePainter::paintGutter(QPainter& p, QSize size, const TimelineScene& s,
                                  const QPalette& pal) const {
    const QRect gutter(0, s.ruler_px, s.gutter_px, size.height() - s.ruler_px);
    p.fillRect(gutter, pal.color(QPalette::Window));
    p.save();
    p.setClipRect(QRect(0, s.ruler_px, size.width(), size.height() - s.ruler_px));
    const Trace& trace = *s.layout->trace();
    const QFontMetrics metrics = p.fontMetrics();
    for (const TimelineLayout::Lane& lane : s.layout->lanes()) {
        const int y = s.ruler_px + lane.y - s.scroll_y;
        if (y > size.height() || y + lane.height < s.ruler_px) continue;
        const TraceLane& info = trace.lanes[size_t(s.layout->rows()[size_t(lane.first_row)].lane)];
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(6, y, s.gutter_px - 10, s.layout->rowHeight()),
                   Qt::AlignVCenter | Qt::AlignLeft,
                   metrics.elidedText(QString::fromStdString(info.name), Qt::ElideMiddle,
                                      s.gutter_px - 10));
        p.setPen(pal.color(QPalette::Mid));
        const int sep = y + lane.height + TimelineLayout::kLaneGap / 2;
        p.drawLine(0, sep, size.width(), sep);
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(s.gutter_px - 1, s.ruler_px, s.gutter_px - 1, size.height());
    p.restore();
}

void TimelinePainter::paintRuler(QPainter& p, QSize size, const TimelineScene& s,
                                 const QPalette& pal) const {
    p.fillRect(QRect(0, 0, size.width(), s.ruler_px), pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, s.ruler_px - 1, size.width(), s.ruler_px - 1);
    const double origin = double(s.layout->startNs());
    const double tick = niceTickNs(s.view.ns_per_px, kMinTickPx);
    const double first = std::ceil((s.view.start_ns - origin) / tick) * tick;
    p.save();
    p.setClipRect(QRect(s.gutter_px, 0, size.width() - s.gutter_px, s.ruler_px));
    // Upper half: step labels; lower half: time ticks relative to the trace start.
    const int half = s.ruler_px / 2;
    for (double t = first; origin + t <= s.view.endNs(); t += tick) {
        const double x = s.gutter_px + s.view.xOf(origin + t);
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(QPointF(x, s.ruler_px - 6), QPointF(x, s.ruler_px - 1));
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRectF(x + 3, half, 200, half - 2), Qt::AlignLeft | Qt::AlignVCenter,
                   timeLabel(t, tick));
    }
    p.setPen(pal.color(QPalette::PlaceholderText));
    for (const StepMark& step : s.layout->trace()->steps) {
        const double x = s.gutter_px + s.view.xOf(double(step.start_ns));
        const double w = s.view.xOf(double(step.end_ns)) - s.view.xOf(double(step.start_ns));
        if (w > 60 && x < size.width() && x + w > s.gutter_px)
            p.drawText(QRectF(std::max(x, double(s.gutter_px)) + 3, 0, w, half),
                       Qt::AlignLeft | Qt::AlignVCenter, QObject::tr("step %1").arg(step.step));
    }
    p.restore();
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(6, 0, s.gutter_px - 8, s.ruler_px), Qt::AlignVCenter | Qt::AlignLeft,
               QObject::tr("%1 visible").arg(format::duration(s.view.visibleNs() / 1e6)));
}

} // namespace ts::gui
