#include "memory/SegmentMapChart.h"

#include <cmath>

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include "common/Format.h"
#include "memory/SnapshotColors.h"
#include "snapshot/SnapshotAnalysis.h"

namespace ts::gui {
namespace {

constexpr int kLeft = 8, kTop = 24, kRight = 8, kBottom = 8, kRow = 18;

} // namespace

SegmentMapChart::SegmentMapChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(200);
}

void SegmentMapChart::setState(std::shared_ptr<const MemorySnapshot> snapshot, AllocatorState state,
                               int device) {
    snapshot_ = std::move(snapshot);
    state_ = std::move(state);
    device_ = device;
    update();
}

void SegmentMapChart::clear() {
    snapshot_.reset();
    state_ = {};
    update();
}

QRect SegmentMapChart::plotRect() const {
    return QRect(kLeft, kTop, std::max(1, width() - kLeft - kRight),
                 std::max(kRow, height() - kTop - kBottom));
}

int SegmentMapChart::rows() const {
    return std::max(1, plotRect().height() / kRow);
}

double SegmentMapChart::bytesPerRow() const {
    return std::max(1.0, std::ceil(double(state_.reserved_bytes) / double(rows())));
}

QPoint SegmentMapChart::pointOf(int64_t offset) const {
    const QRect r = plotRect();
    const double per_row = bytesPerRow();
    const auto row = int64_t(double(offset) / per_row);
    const double in_row = double(offset) - double(row) * per_row;
    return {r.left() + int(in_row / per_row * r.width()), r.top() + int(row) * kRow};
}

int64_t SegmentMapChart::offsetAt(QPoint pos) const {
    const QRect r = plotRect();
    if (!r.contains(pos) || state_.reserved_bytes <= 0) return -1;
    const int row = (pos.y() - r.top()) / kRow;
    const double offset =
        (double(row) + double(pos.x() - r.left()) / double(r.width())) * bytesPerRow();
    return offset < double(state_.reserved_bytes) ? int64_t(offset) : -1;
}

void SegmentMapChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    p.setPen(palette().color(QPalette::Text));
    if (state_.segments.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No segments reserved after this entry."));
        return;
    }
    const int64_t free = state_.reserved_bytes - state_.allocated_bytes;
    p.drawText(QRect(0, 0, width(), kTop), Qt::AlignCenter,
               tr("Allocator state of device %1 after entry %2: %3 segments, %4 reserved, %5 in "
                  "%6 blocks, %7 free in segments (%8 of reserved)")
                   .arg(device_)
                   .arg(state_.entry)
                   .arg(state_.segments.size())
                   .arg(format::bytes(double(state_.reserved_bytes)),
                        format::bytes(double(state_.allocated_bytes)))
                   .arg(state_.blocks)
                   .arg(format::bytes(double(free)),
                        format::percent(double(free) / double(state_.reserved_bytes))));
    const QRect r = plotRect();
    const double per_row = bytesPerRow();
    // A stretch [from, to) of the map, wrapped over the rows it crosses.
    auto fill = [&](int64_t from, int64_t to, const QBrush& brush) {
        while (from < to) {
            const auto row = int64_t(double(from) / per_row);
            const auto row_end = std::min(to, int64_t(double(row + 1) * per_row));
            const QPoint a = pointOf(from);
            int x1 =
                r.left() + int((double(row_end) - double(row) * per_row) / per_row * r.width());
            x1 = std::max(x1, a.x() + 1);
            p.fillRect(QRect(a.x(), a.y(), x1 - a.x(), kRow - 2), brush);
            from = std::max(row_end, from + 1);
        }
    };
    const QColor pale = palette().color(QPalette::Base);
    int64_t at = 0;
    for (const StateSegment& seg : state_.segments) {
        fill(at, at + seg.size, pale);
        for (const StateBlock& b : seg.blocks) {
            const int64_t from = at + (b.address - seg.address);
            const QColor color(stackColor(b.stack));
            fill(from, from + b.size, b.pending_free ? QBrush(color, Qt::BDiagPattern) : color);
        }
        const QPoint start = pointOf(at); // the segment's start: a dark tick
        p.fillRect(QRect(start.x(), start.y(), 1, kRow - 2), palette().color(QPalette::Text));
        at += seg.size;
    }
}

QString SegmentMapChart::describeAt(QPoint pos) const {
    const int64_t offset = offsetAt(pos);
    if (offset < 0 || !snapshot_) return {};
    int64_t at = 0;
    for (const StateSegment& seg : state_.segments) {
        if (offset >= at + seg.size) {
            at += seg.size;
            continue;
        }
        const int64_t address = seg.address + (offset - at);
        const QString segment =
            tr("segment 0x%1, %2, stream 0x%3")
                .arg(QString::number(seg.address, 16), format::bytes(double(seg.size)),
                     QString::number(seg.stream, 16));
        for (const StateBlock& b : seg.blocks)
            if (address >= b.address && address < b.address + b.size) {
                QString stack = QString::fromStdString(stackText(*snapshot_, b.stack));
                stack.replace(QLatin1Char(';'), QLatin1Char('\n'));
                return tr("block 0x%1: %2%3\nin %4\n%5\n\n%6")
                    .arg(QString::number(b.address, 16), format::bytes(double(b.size)),
                         b.pending_free ? tr(", freed, the free pending") : QString(), segment,
                         QString::fromStdString(userFrame(*snapshot_, b.stack)), stack.left(3000));
            }
        return tr("free in %1 (%2 of it allocated)")
            .arg(segment, format::bytes(double(seg.allocated())));
    }
    return {};
}

bool SegmentMapChart::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = describeAt(help->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, this);
    return true;
}

} // namespace ts::gui
