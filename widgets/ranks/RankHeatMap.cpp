#include "ranks/RankHeatMap.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include "common/Format.h"

namespace ts::gui {
namespace {

constexpr int kLeft = 56, kBottom = 20, kTop = 20, kRight = 72;
constexpr QRgb kMissing = 0xff808080;

} // namespace

QRgb heatColour(double share) {
    // A few stops of a viridis-like ramp, interpolated.
    static const QColor kStops[] = {QColor(68, 1, 84), QColor(59, 82, 139), QColor(33, 145, 140),
                                    QColor(94, 201, 98), QColor(253, 231, 37)};
    constexpr int kLast = int(std::size(kStops)) - 1;
    const double x = std::clamp(share, 0.0, 1.0) * kLast;
    const int i = std::min(int(x), kLast - 1);
    const double t = x - i;
    const QColor& a = kStops[i];
    const QColor& b = kStops[i + 1];
    return qRgb(int(a.red() + t * (b.red() - a.red())),
                int(a.green() + t * (b.green() - a.green())),
                int(a.blue() + t * (b.blue() - a.blue())));
}

RankHeatMap::RankHeatMap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(240, 160);
    setObjectName(QStringLiteral("rankHeatMap"));
}

void RankHeatMap::setData(HeatMapData data) {
    data_ = std::move(data);
    renderImage();
    window_ = QRectF(0, 0, image_.width(), image_.height());
    update();
}

void RankHeatMap::renderImage() {
    const int rows = int(data_.ranks.size()), columns = int(data_.steps.size());
    std::vector<double> present;
    present.reserve(data_.ns.size());
    for (double v : data_.ns)
        if (v >= 0) present.push_back(v);
    low_ = high_ = 0;
    if (!present.empty()) {
        const size_t p99 = std::min(present.size() - 1, size_t(0.99 * double(present.size())));
        std::nth_element(present.begin(), present.begin() + long(p99), present.end());
        high_ = present[p99];
        low_ = *std::min_element(present.begin(), present.end());
    }
    image_ = QImage(std::max(columns, 1), std::max(rows, 1), QImage::Format_RGB32);
    image_.fill(kMissing);
    const double span = high_ > low_ ? high_ - low_ : 1;
    for (int r = 0; r < rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(r));
        for (int c = 0; c < columns; ++c) {
            const double v = data_.ns[size_t(r) * size_t(columns) + size_t(c)];
            line[c] = v < 0 ? kMissing : heatColour((v - low_) / span);
        }
    }
}

QRect RankHeatMap::cellArea() const {
    return QRect(kLeft, kTop, std::max(1, width() - kLeft - kRight),
                 std::max(1, height() - kTop - kBottom));
}

void RankHeatMap::clampWindow() {
    const double w =
        std::clamp(window_.width(), std::min(4.0, double(image_.width())), double(image_.width()));
    const double h = std::clamp(window_.height(), std::min(4.0, double(image_.height())),
                                double(image_.height()));
    const double x = std::clamp(window_.x(), 0.0, image_.width() - w);
    const double y = std::clamp(window_.y(), 0.0, image_.height() - h);
    window_ = QRectF(x, y, w, h);
}

void RankHeatMap::zoom(double factor, QPointF at) {
    const QRect area = cellArea();
    const double fx = std::clamp((at.x() - area.left()) / area.width(), 0.0, 1.0);
    const double fy = std::clamp((at.y() - area.top()) / area.height(), 0.0, 1.0);
    const QPointF centre(window_.x() + fx * window_.width(), window_.y() + fy * window_.height());
    const double w = window_.width() / factor, h = window_.height() / factor;
    window_ = QRectF(centre.x() - fx * w, centre.y() - fy * h, w, h);
    clampWindow();
    update();
}

void RankHeatMap::pan(double columns, double rows) {
    window_.translate(columns, rows);
    clampWindow();
    update();
}

QPoint RankHeatMap::cellAt(QPointF point) const {
    const QRect area = cellArea();
    if (!area.contains(point.toPoint()) || data_.ranks.empty() || data_.steps.isEmpty())
        return {-1, -1};
    const int column =
        int(window_.x() + (point.x() - area.left()) * window_.width() / area.width());
    const int row = int(window_.y() + (point.y() - area.top()) * window_.height() / area.height());
    if (row < 0 || row >= int(data_.ranks.size()) || column < 0 || column >= data_.steps.size())
        return {-1, -1};
    return {row, column};
}

QString RankHeatMap::describeAt(QPointF point) const {
    const QPoint cell = cellAt(point);
    if (cell.x() < 0) return {};
    const double v = data_.ns[size_t(cell.x()) * size_t(data_.steps.size()) + size_t(cell.y())];
    return tr("rank %1 · step %2 · %3 %4")
        .arg(data_.ranks[size_t(cell.x())])
        .arg(data_.steps[cell.y()], data_.metric,
             v < 0 ? tr("(no such step)") : format::durationNs(int64_t(v)));
}

void RankHeatMap::paintEvent(QPaintEvent*) {
    const auto start = std::chrono::steady_clock::now();
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const QRect area = cellArea();
    if (data_.ranks.empty() || data_.steps.isEmpty()) {
        painter.drawText(rect(), Qt::AlignCenter, tr("No steps to map"));
        return;
    }
    painter.drawImage(QRectF(area), image_, window_);
    drawAxes(painter, area);
    drawLegend(painter, area);
    frames_.record(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
}

void RankHeatMap::drawAxes(QPainter& painter, const QRect& area) const {
    painter.setPen(palette().text().color());
    const QFontMetrics fm(font());
    painter.drawText(QRect(kLeft, 0, area.width(), kTop), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("%1 per rank and step (%2 ranks x %3 steps; wheel zooms, drag pans)")
                         .arg(data_.metric)
                         .arg(data_.ranks.size())
                         .arg(data_.steps.size()));
    const int first_row = int(window_.top()), last_row = int(std::ceil(window_.bottom()));
    const double row_px = area.height() / window_.height();
    const int row_every = std::max(1, int(std::ceil((fm.height() + 2) / row_px)));
    for (int r = first_row - first_row % row_every; r < last_row; r += row_every) {
        if (r < first_row) continue;
        const double y = area.top() + (r - window_.top() + 0.5) * row_px;
        painter.drawText(QRectF(0, y - fm.height() / 2.0, kLeft - 4, fm.height()),
                         Qt::AlignRight | Qt::AlignVCenter,
                         QString::number(data_.ranks[size_t(r)]));
    }
    const int first_col = int(window_.left()), last_col = int(std::ceil(window_.right()));
    const double col_px = area.width() / window_.width();
    const int widest = fm.horizontalAdvance(data_.steps.last()) + 8;
    const int col_every = std::max(1, int(std::ceil(widest / col_px)));
    for (int c = first_col - first_col % col_every; c < last_col; c += col_every) {
        if (c < first_col) continue;
        const double x = area.left() + (c - window_.left() + 0.5) * col_px;
        painter.drawText(QRectF(x - widest / 2.0, area.bottom() + 2, widest, kBottom - 2),
                         Qt::AlignHCenter | Qt::AlignTop, data_.steps[c]);
    }
}

void RankHeatMap::drawLegend(QPainter& painter, const QRect& area) const {
    const QRect bar(area.right() + 8, area.top(), 12, area.height());
    for (int y = 0; y < bar.height(); ++y)
        painter.fillRect(QRect(bar.left(), bar.bottom() - y, bar.width(), 1),
                         QColor(heatColour(double(y) / std::max(1, bar.height() - 1))));
    const QFontMetrics fm(font());
    painter.drawText(QRect(bar.right() + 3, bar.top(), kRight - 24, fm.height()), Qt::AlignLeft,
                     format::durationNs(int64_t(high_)));
    painter.drawText(QRect(bar.right() + 3, bar.bottom() - fm.height(), kRight - 24, fm.height()),
                     Qt::AlignLeft, format::durationNs(int64_t(low_)));
}

void RankHeatMap::wheelEvent(QWheelEvent* event) {
    zoom(std::pow(1.2, event->angleDelta().y() / 120.0), event->position());
    event->accept();
}

void RankHeatMap::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    dragging_ = true;
    dragged_ = false;
    drag_from_ = event->position();
}

void RankHeatMap::mouseMoveEvent(QMouseEvent* event) {
    if (dragging_) {
        const QRect area = cellArea();
        const QPointF moved = event->position() - drag_from_;
        if (moved.manhattanLength() > 3 || dragged_) {
            dragged_ = true;
            pan(-moved.x() * window_.width() / area.width(),
                -moved.y() * window_.height() / area.height());
            drag_from_ = event->position();
        }
        return;
    }
    const QString text = describeAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void RankHeatMap::mouseReleaseEvent(QMouseEvent* event) {
    if (!dragging_) return;
    dragging_ = false;
    const QPoint cell = cellAt(event->position());
    if (!dragged_ && cell.x() >= 0) emit cellClicked(cell.x(), cell.y());
}

void RankHeatMap::mouseDoubleClickEvent(QMouseEvent* event) {
    const QPoint cell = cellAt(event->position());
    if (cell.x() >= 0) emit cellActivated(cell.x(), cell.y());
}

} // namespace ts::gui
