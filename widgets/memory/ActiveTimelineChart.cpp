#include "memory/ActiveTimelineChart.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "common/Format.h"
#include "memory/SnapshotColors.h"
#include "snapshot/SnapshotAnalysis.h"

namespace ts::gui {
namespace {

constexpr int kLeft = 70, kTop = 24, kRight = 12, kBottom = 28;

} // namespace

ActiveTimelineChart::ActiveTimelineChart(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(240);
    setMouseTracking(true);
}

void ActiveTimelineChart::setTimeline(std::shared_ptr<const MemorySnapshot> snapshot,
                                      ActiveTimeline timeline) {
    snapshot_ = std::move(snapshot);
    timeline_ = std::move(timeline);
    render();
    update();
}

void ActiveTimelineChart::clear() {
    snapshot_.reset();
    timeline_ = {};
    image_ = {};
    update();
}

QRect ActiveTimelineChart::plotRect() const {
    return QRect(kLeft, kTop, std::max(1, width() - kLeft - kRight),
                 std::max(1, height() - kTop - kBottom));
}

int64_t ActiveTimelineChart::entryAt(int x) const {
    const QRect r = plotRect();
    if (timeline_.steps <= 0 || timeline_.last < timeline_.first) return -1;
    const double f = double(x - r.left()) / double(std::max(1, r.width()));
    const int64_t span = timeline_.last - timeline_.first + 1;
    return std::clamp(timeline_.first + int64_t(f * double(span)), timeline_.first, timeline_.last);
}

// Column by column: the bands alive after that column's entry, bottom up,
// then the summed rest in grey up to the allocated total.
void ActiveTimelineChart::render() {
    const QRect r = plotRect();
    image_ = QImage(r.size(), QImage::Format_RGB32);
    image_.fill(palette().color(QPalette::Base));
    if (timeline_.steps <= 0 || timeline_.peak <= 0) return;
    const double bytes_per_px = double(timeline_.peak) * 1.05 / double(r.height());
    const QRgb grey = qRgb(185, 185, 185);
    for (int x = 0; x < r.width(); ++x) {
        const int64_t t = entryAt(r.left() + x);
        double offset = 0;
        auto fill = [&](double from, double to, QRgb color) {
            const int y0 = r.height() - 1 - int(to / bytes_per_px);
            const int y1 = r.height() - 1 - int(from / bytes_per_px);
            for (int y = std::max(0, y0); y <= std::min(r.height() - 1, y1); ++y)
                reinterpret_cast<QRgb*>(image_.scanLine(y))[x] = color;
        };
        for (const ActiveBand& b : timeline_.bands) {
            if (b.start > t || b.end <= t) continue;
            // A band thinner than a pixel still paints its pixel (the next
            // one may paint over it): no white gaps where many small ones sit.
            fill(offset, offset + double(b.size), stackColor(b.stack));
            offset += double(b.size);
        }
        const double total = t < int64_t(timeline_.allocated.size())
                                 ? double(timeline_.allocated[size_t(t)])
                                 : offset;
        if (total > offset) fill(offset, total, grey);
    }
}

int ActiveTimelineChart::bandAt(QPoint pos) const {
    const QRect r = plotRect();
    if (!r.contains(pos) || timeline_.peak <= 0) return -1;
    const int64_t t = entryAt(pos.x());
    const double bytes_per_px = double(timeline_.peak) * 1.05 / double(r.height());
    const double at = double(r.bottom() - pos.y()) * bytes_per_px;
    double offset = 0;
    for (size_t i = 0; i < timeline_.bands.size(); ++i) {
        const ActiveBand& b = timeline_.bands[i];
        if (b.start > t || b.end <= t) continue;
        if (at >= offset && at < offset + double(b.size)) return int(i);
        offset += double(b.size);
    }
    return -1;
}

void ActiveTimelineChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    const QRect r = plotRect();
    if (!image_.isNull()) p.drawImage(r.topLeft(), image_);
    p.setPen(palette().color(QPalette::Text));
    p.drawRect(r.adjusted(0, 0, -1, -1));
    if (timeline_.steps <= 0) {
        p.drawText(r, Qt::AlignCenter, tr("No allocation history to draw."));
        return;
    }
    p.drawText(QRect(0, 0, width(), kTop), Qt::AlignCenter,
               tr("Active Memory Timeline, device %1: %2 allocations drawn%3; peak %4")
                   .arg(timeline_.device)
                   .arg(timeline_.bands.size())
                   .arg(timeline_.summarized
                            ? tr(", %1 smaller ones summed (grey)").arg(timeline_.summarized)
                            : QString())
                   .arg(format::bytes(double(timeline_.peak))));
    const double top_bytes = double(timeline_.peak) * 1.05;
    for (int i = 0; i <= 4; ++i) { // y axis: five labels
        const int y = r.bottom() - r.height() * i / 4;
        p.drawText(QRect(0, y - 8, kLeft - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                   format::bytes(top_bytes * i / 4));
    }
    p.drawText(QRect(r.left(), r.bottom() + 4, r.width(), kBottom - 4), Qt::AlignLeft,
               QString::number(timeline_.first));
    p.drawText(QRect(r.left(), r.bottom() + 4, r.width(), kBottom - 4), Qt::AlignHCenter,
               tr("trace entry (drag to zoom)"));
    p.drawText(QRect(r.left(), r.bottom() + 4, r.width(), kBottom - 4), Qt::AlignRight,
               QString::number(timeline_.last + 1));
    if (drag_from_ >= 0) { // the stretch being selected
        const int x0 = std::min(drag_from_, drag_to_), x1 = std::max(drag_from_, drag_to_);
        p.fillRect(QRect(x0, r.top(), x1 - x0, r.height()), QColor(60, 120, 220, 60));
    }
}

void ActiveTimelineChart::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    render();
}

void ActiveTimelineChart::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && plotRect().contains(event->position().toPoint()))
        drag_from_ = drag_to_ = event->position().toPoint().x();
}

void ActiveTimelineChart::mouseMoveEvent(QMouseEvent* event) {
    if (drag_from_ < 0) return;
    drag_to_ = std::clamp(event->position().toPoint().x(), plotRect().left(), plotRect().right());
    update();
}

// A click picks an entry; a drag of a few pixels or more selects a range.
void ActiveTimelineChart::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || drag_from_ < 0) return;
    const int from = drag_from_, to = event->position().toPoint().x();
    drag_from_ = drag_to_ = -1;
    update();
    if (std::abs(to - from) >= 5)
        emit rangeSelected(entryAt(std::min(from, to)), entryAt(std::max(from, to)));
    else if (plotRect().contains(event->position().toPoint()))
        emit entryClicked(entryAt(to));
}

bool ActiveTimelineChart::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const int band = bandAt(help->pos());
    if (band < 0 || !snapshot_) {
        QToolTip::hideText();
        return true;
    }
    const ActiveBand& b = timeline_.bands[size_t(band)];
    QString stack = QString::fromStdString(stackText(*snapshot_, b.stack));
    stack.replace(QLatin1Char(';'), QLatin1Char('\n'));
    QToolTip::showText(help->globalPos(),
                       tr("%1 bytes, alive from %2 to entry %3\n%4\n\n%5")
                           .arg(b.size)
                           .arg(b.start == ActiveBand::kBeforeTrace ? tr("before the trace")
                                                                    : tr("entry %1").arg(b.start))
                           .arg(b.end)
                           .arg(QString::fromStdString(userFrame(*snapshot_, b.stack)))
                           .arg(stack.left(3000)),
                       this);
    return true;
}

} // namespace ts::gui
