#include "roofline/RooflineChart.h"

#include <algorithm>
#include <cmath>

#include <QMouseEvent>
#include <QToolTip>

#include "charts/SpecPlot.h"
#include "common/Format.h"
#include "report/RooflineReport.h"
#include "roofline/RooflineModel.h"

namespace ts::gui {
namespace {

constexpr double kHitSlackPx = 3.0;

} // namespace

RooflineChart::RooflineChart(QWidget* parent) : ThemedPlot(parent) {
    setMouseTracking(true);
    setMinimumSize(380, 300);
    clear(tr("No roofline yet."));
}

void RooflineChart::clear(const QString& message) {
    roofline_ = Roofline();
    chart::XyChart empty;
    empty.title = tr("Roofline").toStdString();
    empty.x_label = "arithmetic intensity (FLOP/byte)";
    empty.y_label = "GFLOP/s";
    empty.log_x = empty.log_y = true;
    drawSpec(empty, mainSpecPanel(*this));
    roof_ = low_roof_ = nullptr;
    selected_ = -1;
    addHighlight();
    message_ = new QCPItemText(this);
    message_->position->setType(QCPItemPosition::ptAxisRectRatio);
    message_->position->setCoords(0.5, 0.5);
    message_->setText(message);
    refresh();
}

QString RooflineChart::message() const {
    return message_ ? message_->text() : QString();
}

double RooflineChart::pointRadius(int index) const {
    return rooflineMarkerSize(roofline_.points[size_t(index)]) / 2;
}

// The ring around the selected point: on top of the spec's drawing, never in a report.
void RooflineChart::addHighlight() {
    highlight_ = new QCPGraph(xAxis, yAxis);
    highlight_->removeFromLegend();
    highlight_->setLineStyle(QCPGraph::lsNone);
}

void RooflineChart::setRoofline(const Roofline& r) {
    const MachinePeaks& pk = r.peaks;
    if (!(pk.fp32_gflops > 0 && pk.bandwidth_gbs > 0)) {
        clear(tr("Enter or measure the machine's peaks."));
        return;
    }
    roofline_ = r;
    size_t memory = 0;
    for (const RooflinePoint& p : r.points)
        memory += p.bound == Bound::Memory;
    const QString title =
        r.points.empty()
            ? tr("Roofline (%1 peaks): no operator with FLOPs, bytes and time")
                  .arg(QString::fromStdString(pk.source))
            : tr("Roofline: %1 operators, %2 memory-bound, %3 compute-bound (%4 peaks)")
                  .arg(r.points.size())
                  .arg(memory)
                  .arg(r.points.size() - memory)
                  .arg(QString::fromStdString(pk.source));
    const DrawnSpec drawn = drawSpec(rooflineChart(r, title.toStdString()), mainSpecPanel(*this));
    // rooflineChart puts the reduced-precision roof (when known) before the fp32 one.
    const bool low = pk.low_gflops > 0;
    low_roof_ = low ? qobject_cast<QCPGraph*>(drawn.series.at(0)) : nullptr;
    roof_ = qobject_cast<QCPGraph*>(drawn.series.at(low ? 1 : 0));
    message_ = nullptr;
    selected_ = -1;
    addHighlight();
    refresh();
}

QPointF RooflineChart::pointPixel(int index) const {
    const RooflinePoint& p = roofline_.points.at(size_t(index));
    return {xAxis->coordToPixel(p.intensity), yAxis->coordToPixel(p.achieved_gflops)};
}

int RooflineChart::pointAt(const QPointF& pixel) const {
    int best = -1;
    double best_distance = 0;
    for (int i = 0; i < pointCount(); ++i) {
        const QPointF d = pointPixel(i) - pixel;
        const double distance = std::hypot(d.x(), d.y());
        if (distance > pointRadius(i) + kHitSlackPx) continue;
        if (best < 0 || distance < best_distance) {
            best = i;
            best_distance = distance;
        }
    }
    return best;
}

QString RooflineChart::pointText(int index) const {
    if (index < 0 || index >= pointCount()) return {};
    const RooflinePoint& p = roofline_.points[size_t(index)];
    return tr("<b>%1</b><br>%2 FLOP/byte, %3 GFLOP/s achieved<br>%4 of the %5 GFLOP/s roof%6"
              "<br><b>%7</b>, %8 of the time, %9 calls")
        .arg(QString::fromStdString(p.cost.name).toHtmlEscaped())
        .arg(format::number(p.intensity, 3))
        .arg(format::number(p.achieved_gflops, 4))
        .arg(format::percent(p.efficiency))
        .arg(format::number(p.roof_gflops, 4))
        .arg(p.cost.low_precision
                 ? tr(" (%1)").arg(QString::fromStdString(roofline_.peaks.low_precision))
                 : QString())
        .arg(boundText(p.bound))
        .arg(format::percent(p.time_share))
        .arg(p.cost.calls);
}

void RooflineChart::setSelectedPoint(int index) {
    selected_ = index >= 0 && index < pointCount() ? index : -1;
    if (!highlight_) return;
    if (selected_ < 0) {
        highlight_->data()->clear();
    } else {
        const RooflinePoint& p = roofline_.points[size_t(selected_)];
        highlight_->setScatterStyle(QCPScatterStyle(
            QCPScatterStyle::ssCircle, QPen(palette().color(QPalette::WindowText), 2.5),
            Qt::NoBrush, 2 * pointRadius(selected_) + 8));
        highlight_->setData({p.intensity}, {p.achieved_gflops});
    }
    replot(rpQueuedReplot);
}

void RooflineChart::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    const int index = pointAt(event->position());
    if (index >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), pointText(index), this);
    else
        QToolTip::hideText();
}

void RooflineChart::mousePressEvent(QMouseEvent* event) {
    QCustomPlot::mousePressEvent(event);
    if (event->button() != Qt::LeftButton) return;
    const int index = pointAt(event->position());
    if (index < 0) return;
    setSelectedPoint(index);
    emit pointClicked(index);
}

void RooflineChart::leaveEvent(QEvent* event) {
    QCustomPlot::leaveEvent(event);
    QToolTip::hideText();
}

} // namespace ts::gui
