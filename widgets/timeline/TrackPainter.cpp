#include "timeline/TrackPainter.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QFontMetrics>
#include <QObject>
#include <QPainter>
#include <QPainterPath>

#include "common/Format.h"
#include "common/ThemePalette.h"

namespace ts::gui {
namespace {

constexpr double kArrowHeadPx = 6;

// The whole nanoseconds pixel column x covers, at least one: zoomed in to
// 0.02 ns a pixel, truncating both ends gave empty columns (0 % busy inside
// a kernel) with a full one every 50 pixels.
std::pair<int64_t, int64_t> columnSpan(const TimelineViewport& view, double x) {
    const auto t0 = int64_t(std::floor(view.timeAt(x)));
    const auto t1 = int64_t(std::ceil(view.timeAt(x + 1)));
    return {t0, std::max(t0 + 1, t1)};
}

// Pixel columns [x0, x1) of the shaded (odd) steps, in view coordinates.
struct Band {
    int x0, x1;
};

// The bands to shade on a lane: host ranges, or for device lanes and the GPU
// utilization rows the device ranges. Without tracks: the trace's steps.
// Computed once per frame (not per lane) in whole pixels, merged where they
// touch; a step under one pixel wide is not shaded, since alternating bands
// cannot be told apart there (a 1 GB trace holds 16,000 steps, and filling
// each for each lane cost more than drawing the events).
std::vector<Band> stepBands(const TimelineScene& s, bool device) {
    std::vector<Band> bands;
    auto add = [&](int64_t step, int64_t start, int64_t end) {
        if (step % 2 == 0) return;
        const double x0 = std::max(0.0, s.view.xOf(double(start)));
        const double x1 = std::min(double(s.view.width_px), s.view.xOf(double(end)));
        if (x1 - x0 < 1.0) return;
        const Band band{int(std::lround(x0)), int(std::lround(x1))};
        if (!bands.empty() && bands.back().x1 >= band.x0)
            bands.back().x1 = std::max(bands.back().x1, band.x1);
        else
            bands.push_back(band);
    };
    if (!s.tracks) {
        for (const StepMark& m : s.layout->trace()->steps)
            add(m.step, m.start_ns, m.end_ns);
        return bands;
    }
    for (const StepSpan& m : s.tracks->steps) {
        if (device && !m.hasDevice()) continue;
        add(m.step, device ? m.device_start : m.host_start, device ? m.device_end : m.host_end);
    }
    return bands;
}

void shadeBlock(QPainter& p, const std::vector<Band>& bands, int y, int height,
                const QColor& band_color) {
    for (const Band& band : bands)
        p.fillRect(QRect(band.x0, y, band.x1 - band.x0, height), band_color);
}

bool visible(const TimelineScene& s, QSize size, int y, int height) {
    return y + height >= s.scroll_y && y <= s.scroll_y + size.height() - s.ruler_px;
}

QFont smallFont(const QPainter& p) {
    QFont font = p.font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    return font;
}

void paintBusyRow(QPainter& p, const TimelineScene& s, const BusyTrack& busy, int y, int h,
                  const QColor& color, const QColor& text) {
    QPolygonF area;
    area.reserve(s.view.width_px * 2 + 4);
    area << QPointF(0, y + h);
    for (int x = 0; x < s.view.width_px; ++x) {
        const auto span = columnSpan(s.view, x);
        const double top = y + h - busy.fraction(span.first, span.second) * (h - 2);
        area << QPointF(x, top) << QPointF(x + 1, top);
    }
    area << QPointF(s.view.width_px, y + h);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPolygon(area);
    const double share =
        busy.fraction(int64_t(s.view.start_ns), int64_t(s.view.endNs())); // of what is shown
    p.setPen(text);
    p.setFont(smallFont(p));
    p.drawText(QRectF(4, y, 400, h), Qt::AlignLeft | Qt::AlignTop,
               QObject::tr("%1 busy in view").arg(format::percent(share)));
}

// The series as the maximum of each pixel column (so a one-sample spike
// stays visible when zoomed out); NaN where it has not started.
std::vector<double> columnMaxima(const CounterSeries& series, const TimelineViewport& view) {
    std::vector<double> out(size_t(std::max(0, view.width_px)), std::nan(""));
    for (int x = 0; x < view.width_px; ++x) {
        double v = 0;
        const auto span = columnSpan(view, x);
        if (series.maxOver(span.first, span.second, v)) out[size_t(x)] = v;
    }
    return out;
}

// Values mapped onto the row: `low` (0, or below for net changes that
// start with frees) at the bottom, `high` at the top; never outside the row.
QPolygonF curve(const std::vector<double>& values, int y, int h, double low, double high) {
    QPolygonF line;
    const double span = std::max(high - low, 1.0);
    for (size_t x = 0; x < values.size(); ++x)
        if (!std::isnan(values[x])) {
            const double share = std::clamp((values[x] - low) / span, 0.0, 1.0);
            const double top = y + h - share * (h - 2);
            line << QPointF(double(x), top) << QPointF(double(x) + 1, top);
        }
    return line;
}

// A curve filled down to `bottom`, its line on top.
void paintArea(QPainter& p, const QPolygonF& line, int bottom, const QColor& color) {
    if (line.isEmpty()) return;
    QPolygonF area = line;
    area.prepend(QPointF(line.front().x(), bottom));
    area.append(QPointF(line.back().x(), bottom));
    QColor fill = color;
    fill.setAlpha(110);
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawPolygon(area);
    p.setPen(QPen(color, 1.2));
    p.drawPolyline(line);
}

void paintPeakMarker(QPainter& p, const TimelineScene& s, const CounterSeries& series, int y,
                     const QColor& color) {
    const double x = s.view.xOf(double(series.peakTime()));
    if (x < 0 || x > s.view.width_px) return;
    QPolygonF mark;
    mark << QPointF(x - 4, y) << QPointF(x + 4, y) << QPointF(x, y + 6);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPolygon(mark);
}

void paintMemoryRow(QPainter& p, const TimelineScene& s, const MemoryRow& row, int y, int h,
                    const QColor& color, const QPalette& pal) {
    const double high = std::max({row.allocated.peak(), row.reserved.peak(), 1.0});
    const double low = std::min(row.allocated.lowest(), 0.0);
    paintArea(p, curve(columnMaxima(row.allocated, s.view), y, h, low, high), y + h, color);
    if (!row.reserved.empty()) {
        p.setPen(QPen(color.darker(140), 1.2, Qt::DashLine));
        p.drawPolyline(curve(columnMaxima(row.reserved, s.view), y, h, low, high));
    }
    paintPeakMarker(p, s, row.allocated, y, pal.color(QPalette::Highlight));
    p.setPen(pal.color(QPalette::WindowText));
    p.setFont(smallFont(p));
    const QString reserved =
        row.reserved.empty()
            ? QString()
            : QObject::tr(" · reserved (dashed) peak %1").arg(format::bytes(row.reserved.peak()));
    p.drawText(QRectF(4, y, 800, h), Qt::AlignLeft | Qt::AlignTop,
               (row.from_deltas ? QObject::tr("net allocated since the trace began (it recorded no "
                                              "totals), peak %1 (▼)%2")
                                : QObject::tr("allocated peak %1 (▼)%2"))
                   .arg(format::bytes(row.allocated.peak()), reserved));
}

void arrowHead(QPainter& p, QPointF tip, bool downwards, const QColor& color) {
    const double d = downwards ? -kArrowHeadPx : kArrowHeadPx;
    QPolygonF head;
    head << tip << QPointF(tip.x() - kArrowHeadPx / 2, tip.y() + d)
         << QPointF(tip.x() + kArrowHeadPx / 2, tip.y() + d);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPolygon(head);
}

} // namespace

QColor mixColors(const QColor& a, const QColor& b, int weight_b) {
    const int wa = 4 - weight_b;
    return QColor((a.red() * wa + b.red() * weight_b) / 4,
                  (a.green() * wa + b.green() * weight_b) / 4,
                  (a.blue() * wa + b.blue() * weight_b) / 4);
}

namespace {

size_t trackRows(const TimelineScene& s) {
    return s.tracks ? s.tracks->counterRows() : 0;
}

// The value row of counter row `index`, null for the tracks' own rows.
const ValueRow* valueRowOf(const TimelineScene& s, int index) {
    const size_t own = trackRows(s);
    if (index < 0 || size_t(index) < own || !s.values) return nullptr;
    const size_t i = size_t(index) - own;
    return i < s.values->size() ? &(*s.values)[i] : nullptr;
}

QString valueText(double v, const std::string& unit) {
    return QStringLiteral("%1 %2").arg(format::number(v, 4), QString::fromStdString(unit));
}

// A value row: its series as an area (the most of each pixel column), its
// peak marked and named.
void paintValueRow(QPainter& p, const TimelineScene& s, const ValueRow& row, int y, int h,
                   const QColor& color, const QPalette& pal) {
    paintArea(p,
              curve(columnMaxima(row.series, s.view), y, h, std::min(0.0, row.series.lowest()),
                    std::max(row.series.peak(), 1e-9)),
              y + h, color);
    paintPeakMarker(p, s, row.series, y, pal.color(QPalette::Highlight));
    p.setPen(pal.color(QPalette::WindowText));
    p.setFont(smallFont(p));
    p.drawText(QRectF(4, y, 800, h), Qt::AlignLeft | Qt::AlignTop,
               QObject::tr("peak %1 (▼)").arg(valueText(row.series.peak(), row.unit)));
}

} // namespace

QString counterRowName(const TimelineScene& s, int index) {
    if (const ValueRow* row = valueRowOf(s, index)) return QString::fromStdString(row->label);
    if (!s.tracks || index < 0) return {};
    const TimelineTracks& tracks = *s.tracks;
    const auto gpus = int(tracks.gpus.size());
    if (index < gpus) return QObject::tr("GPU %1 utilization").arg(tracks.gpus[size_t(index)].gpu);
    if (size_t(index - gpus) < tracks.memory.size())
        return QString::fromStdString(tracks.memory[size_t(index - gpus)].label);
    return {};
}

QString counterRowValue(const TimelineScene& s, int index, double x) {
    const auto [t0, t1] = columnSpan(s.view, std::floor(x));
    if (const ValueRow* row = valueRowOf(s, index)) {
        double v = 0;
        if (!row->series.maxOver(t0, t1, v)) return counterRowName(s, index);
        return QObject::tr("%1\n%2 here (the most in this pixel)")
            .arg(counterRowName(s, index), valueText(v, row->unit));
    }
    if (!s.tracks) return {};
    const TimelineTracks& tracks = *s.tracks;
    const auto gpus = int(tracks.gpus.size());
    if (index >= 0 && index < gpus)
        return QObject::tr("%1: %2 busy here")
            .arg(counterRowName(s, index),
                 format::percent(tracks.gpus[size_t(index)].busy.fraction(t0, t1)));
    if (index < gpus || size_t(index - gpus) >= tracks.memory.size()) return {};
    const MemoryRow& row = tracks.memory[size_t(index - gpus)];
    double allocated = 0, reserved = 0;
    if (!row.allocated.maxOver(t0, t1, allocated)) return counterRowName(s, index);
    QString text =
        QObject::tr("%1\nallocated %2").arg(counterRowName(s, index), format::bytes(allocated));
    if (row.reserved.maxOver(t0, t1, reserved))
        text += QObject::tr("\nreserved %1").arg(format::bytes(reserved));
    return text;
}

void paintStepShading(QPainter& p, QSize size, const TimelineScene& s, const QPalette& pal) {
    const TimelineLayout& layout = *s.layout;
    const Trace& trace = *layout.trace();
    const QColor band = pal.color(QPalette::AlternateBase);
    const std::vector<Band> host = stepBands(s, false), device = stepBands(s, true);
    const int gpu_rows = s.tracks ? int(s.tracks->gpus.size()) : 0;
    for (int i = 0; i < layout.counterRows(); ++i)
        if (visible(s, size, layout.counterY(i), layout.counterHeight()))
            shadeBlock(p, i < gpu_rows || valueRowOf(s, i) ? device : host, layout.counterY(i),
                       layout.counterHeight(), band);
    for (const TimelineLayout::Lane& lane : layout.lanes()) {
        if (!visible(s, size, lane.y, lane.height)) continue;
        const int32_t index = layout.rows()[size_t(lane.first_row)].lane;
        shadeBlock(p, trace.lanes[size_t(index)].device ? device : host, lane.y,
                   lane.height + TimelineLayout::kLaneGap / 2, band);
    }
}

void paintCounterRows(QPainter& p, const TimelineScene& s, const QPalette& pal) {
    if (!s.tracks) return;
    const TimelineLayout& layout = *s.layout;
    const int h = layout.counterHeight();
    const auto gpus = int(s.tracks->gpus.size());
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int i = 0; i < layout.counterRows(); ++i) {
        const int y = layout.counterY(i);
        p.setPen(pal.color(QPalette::Midlight));
        p.drawLine(0, y + h, s.view.width_px, y + h);
        p.save(); // each row shrinks the font for its caption
        if (i < gpus) {
            QColor fill = seriesColor(2);
            fill.setAlpha(170);
            paintBusyRow(p, s, s.tracks->gpus[size_t(i)].busy, y, h, fill,
                         pal.color(QPalette::WindowText));
        } else if (size_t(i - gpus) < s.tracks->memory.size()) {
            paintMemoryRow(p, s, s.tracks->memory[size_t(i - gpus)], y, h, seriesColor(0), pal);
        } else if (const ValueRow* row = valueRowOf(s, i)) {
            paintValueRow(p, s, *row, y, h, seriesColor(row->unit == "GB/s" ? 4 : 3), pal);
        }
        p.restore();
    }
    p.restore();
}

void paintLaunchArrows(QPainter& p, const TimelineScene& s, const QPalette& pal) {
    if (s.arrows.empty()) return;
    const TimelineLayout& layout = *s.layout;
    const Trace& trace = *layout.trace();
    const QColor color = pal.color(QPalette::Link);
    const int h = layout.rowHeight();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const LaunchPair& launch : s.arrows) {
        const int from_row = layout.rowOf(launch.first), to_row = layout.rowOf(launch.second);
        if (from_row < 0 || to_row < 0) continue;
        const double x0 = s.view.xOf(double(trace.events[size_t(launch.first)].start_ns));
        const double x1 = s.view.xOf(double(trace.events[size_t(launch.second)].start_ns));
        if (std::max(x0, x1) < 0 || std::min(x0, x1) > s.view.width_px) continue;
        const int y_from = layout.rows()[size_t(from_row)].y,
                  y_to = layout.rows()[size_t(to_row)].y;
        const bool down = y_to > y_from;
        const QPointF a(x0, down ? y_from + h : y_from), b(x1, down ? y_to : y_to + h);
        const double bend = (b.y() - a.y()) / 2;
        QPainterPath path(a);
        path.cubicTo(QPointF(a.x(), a.y() + bend), QPointF(b.x(), b.y() - bend), b);
        p.setPen(QPen(color, 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        arrowHead(p, b, down, color);
    }
    p.restore();
}

void paintCounterLabels(QPainter& p, QSize size, const TimelineScene& s, const QPalette& pal) {
    if (!s.tracks) return;
    const TimelineLayout& layout = *s.layout;
    p.save();
    p.setClipRect(QRect(0, s.ruler_px, s.gutter_px, size.height() - s.ruler_px));
    const QFontMetrics metrics = p.fontMetrics();
    for (int i = 0; i < layout.counterRows(); ++i) {
        const int y = s.ruler_px + layout.counterY(i) - s.scroll_y;
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(
            QRect(6, y, s.gutter_px - 10, layout.counterHeight()),
            Qt::AlignVCenter | Qt::AlignLeft | Qt::TextWordWrap,
            metrics.elidedText(counterRowName(s, i), Qt::ElideMiddle, 2 * (s.gutter_px - 10)));
        p.setPen(pal.color(QPalette::Mid));
        const int sep = y + layout.counterHeight() + TimelineLayout::kLaneGap / 2;
        p.drawLine(0, sep, size.width(), sep);
    }
    p.restore();
}

} // namespace ts::gui
