#include "memory/FlameGraphChart.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "common/Format.h"
#include "memory/SnapshotColors.h"

namespace ts::gui {
namespace {

constexpr int kRow = 18, kTop = 24, kMargin = 6;

} // namespace

FlameGraphChart::FlameGraphChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(160);
}

void FlameGraphChart::setFlame(MemoryFlame flame, const QString& title) {
    flame_ = std::move(flame);
    title_ = title;
    zoom_ = 0;
    updateGeometry();
    update();
}

void FlameGraphChart::clear() {
    setFlame({}, {});
}

QSize FlameGraphChart::sizeHint() const {
    return {600, kTop + (flame_.depth + 1) * kRow + kMargin};
}

void FlameGraphChart::zoomTo(int node) {
    zoom_ = node >= 0 && node < int(flame_.nodes.size()) ? node : 0;
    update();
}

// A node is in the zoomed view when it is the zoomed node, one of its
// ancestors (drawn full width above it) or below it.
bool FlameGraphChart::inZoom(int node) const {
    for (int n = node; n >= 0; n = flame_.nodes[size_t(n)].parent)
        if (n == zoom_) return true;
    for (int n = zoom_; n >= 0; n = flame_.nodes[size_t(n)].parent)
        if (n == node) return true;
    return false;
}

QRect FlameGraphChart::nodeRect(int node) const {
    if (node < 0 || node >= int(flame_.nodes.size()) || !inZoom(node)) return {};
    const FlameNode& z = flame_.nodes[size_t(zoom_)];
    const FlameNode& n = flame_.nodes[size_t(node)];
    const double width = double(std::max(1, this->width() - 2 * kMargin));
    const double bytes = double(std::max<int64_t>(1, z.bytes));
    // Ancestors of the zoomed node span the whole width, as it does.
    const bool above = n.depth < z.depth;
    const double x0 = above ? 0 : double(n.offset - z.offset) / bytes * width;
    const double x1 = above ? width : double(n.offset - z.offset + n.bytes) / bytes * width;
    if (x1 - x0 < 1) return {};
    return QRect(kMargin + int(x0), kTop + n.depth * kRow, std::max(1, int(x1) - int(x0)),
                 kRow - 1);
}

int FlameGraphChart::nodeAt(QPoint pos) const {
    const int depth = (pos.y() - kTop) / kRow;
    if (pos.y() < kTop || depth > flame_.depth) return -1;
    for (size_t i = 0; i < flame_.nodes.size(); ++i)
        if (flame_.nodes[i].depth == depth && nodeRect(int(i)).contains(pos)) return int(i);
    return -1;
}

void FlameGraphChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    p.setPen(palette().color(QPalette::Text));
    if (flame_.nodes.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("Nothing alive to draw."));
        return;
    }
    const FlameNode& z = flame_.nodes[size_t(zoom_)];
    p.drawText(QRect(0, 0, width(), kTop), Qt::AlignCenter,
               zoom_ == 0 ? title_
                          : tr("%1 — zoomed into %2 (%3); click the top row to zoom out")
                                .arg(title_, QString::fromStdString(z.frame),
                                     format::bytes(double(z.bytes))));
    const QFontMetrics metrics(font());
    for (size_t i = 0; i < flame_.nodes.size(); ++i) {
        const QRect r = nodeRect(int(i));
        if (r.isEmpty()) continue;
        const FlameNode& n = flame_.nodes[i];
        p.fillRect(r, n.depth == 0 ? QColor(200, 200, 200) : frameColor(n.frame));
        if (r.width() < 24) continue;
        const QString label = n.depth == 0 ? tr("all: %1").arg(format::bytes(double(n.bytes)))
                                           : QString::fromStdString(n.frame);
        p.setPen(Qt::black);
        p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                   metrics.elidedText(label, Qt::ElideRight, r.width() - 5));
    }
}

void FlameGraphChart::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (event->button() == Qt::RightButton) {
        zoomTo(zoom_ > 0 ? flame_.nodes[size_t(zoom_)].parent : 0);
        return;
    }
    if (event->button() != Qt::LeftButton) return;
    const int node = nodeAt(pos);
    if (node < 0) return;
    // The zoomed node or one above it: one level out.
    if (flame_.nodes[size_t(node)].depth <= flame_.nodes[size_t(zoom_)].depth && zoom_ > 0)
        zoomTo(flame_.nodes[size_t(zoom_)].parent);
    else
        zoomTo(node);
}

bool FlameGraphChart::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const int node = nodeAt(help->pos());
    if (node < 0) {
        QToolTip::hideText();
        return true;
    }
    const FlameNode& n = flame_.nodes[size_t(node)];
    const double total = double(std::max<int64_t>(1, flame_.total()));
    QToolTip::showText(help->globalPos(),
                       tr("%1\n%2 alive under it (%3 of all), %4 allocations\n%5 allocated "
                          "here as the innermost frame")
                           .arg(QString::fromStdString(n.frame), format::bytes(double(n.bytes)),
                                format::percent(double(n.bytes) / total))
                           .arg(n.blocks)
                           .arg(format::bytes(double(n.self))),
                       this);
    return true;
}

} // namespace ts::gui
