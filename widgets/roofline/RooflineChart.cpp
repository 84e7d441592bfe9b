#include "roofline/RooflineChart.h"

#include <algorithm>
#include <cmath>

#include <QMouseEvent>
#include <QToolTip>

#include "common/ChartStyle.h"
#include "common/Format.h"
#include "common/ThemePalette.h"
#include "roofline/RooflineModel.h"

namespace ts::gui {
namespace {

constexpr int kLabelledPoints = 6;
constexpr int kLabelChars = 22;
constexpr double kLabelGapX = 0.12; // share of the x range a name needs
constexpr double kLabelGapY = 0.04; // of the y range
constexpr double kHitSlackPx = 3.0;

const QColor kRoofColor(200, 40, 40);
const QColor kLowRoofColor(230, 140, 40);

QColor boundColor(Bound bound) {
    return bound == Bound::Memory ? seriesColor(0) : seriesColor(4);
}

QString shortName(const std::string& name) {
    QString text = QString::fromStdString(name);
    if (text.startsWith(QLatin1String("aten::"))) text = text.mid(6);
    if (text.size() > kLabelChars) text = text.left(kLabelChars - 1) + QChar(0x2026);
    return text;
}

QSharedPointer<QCPAxisTickerLog> logTicker() {
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(10);
    ticker->setSubTickCount(8);
    return ticker;
}

} // namespace

RooflineChart::RooflineChart(QWidget* parent)
    : QCustomPlot(parent), title_(new QCPTextElement(this)) {
    setAutoAddPlottableToLegend(false);
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, title_);
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(logTicker());
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(0);
        axis->grid()->setSubGridVisible(true);
    }
    xAxis->setLabel(tr("Arithmetic intensity (FLOP/byte)"));
    yAxis->setLabel(tr("GFLOP/s"));
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    setMouseTracking(true);
    setMinimumSize(380, 300);
    clear(tr("No roofline yet."));
}

QCPGraph* RooflineChart::makeGraph(const QString& name, const QPen& pen, bool inLegend) {
    auto* graph = new QCPGraph(xAxis, yAxis);
    graph->setName(name);
    graph->setPen(pen);
    if (inLegend) graph->addToLegend();
    return graph;
}

void RooflineChart::resetPlot() {
    clearPlottables();
    clearItems();
    legend->clearItems();
    points_.clear();
    labels_.clear();
    roof_ = low_roof_ = highlight_ = nullptr;
    message_ = nullptr;
    selected_ = -1;
}

void RooflineChart::clear(const QString& message) {
    resetPlot();
    roofline_ = Roofline();
    message_ = new QCPItemText(this);
    message_->position->setType(QCPItemPosition::ptAxisRectRatio);
    message_->position->setCoords(0.5, 0.5);
    message_->setText(message);
    xAxis->setRange(0.1, 100);
    yAxis->setRange(0.1, 1000);
    title_->setText(tr("Roofline"));
    legend->setVisible(false);
    applyPalette();
    replot(rpQueuedReplot);
}

QString RooflineChart::message() const {
    return message_ ? message_->text() : QString();
}

double RooflineChart::pointRadius(int index) const {
    return 3.0 + 11.0 * std::sqrt(std::max(0.0, roofline_.points[size_t(index)].time_share));
}

void RooflineChart::setRoofline(const Roofline& r) {
    const MachinePeaks& pk = r.peaks;
    if (!(pk.fp32_gflops > 0 && pk.bandwidth_gbs > 0)) {
        clear(tr("Enter or measure the machine's peaks."));
        return;
    }
    resetPlot();
    roofline_ = r;
    const bool low = pk.low_gflops > 0;
    double lo = pk.ridge() / 10, hi = pk.ridge() * 10;
    if (low) {
        lo = std::min(lo, pk.ridge(true) / 10);
        hi = std::max(hi, pk.ridge(true) * 10);
    }
    for (const RooflinePoint& p : r.points) {
        lo = std::min(lo, p.intensity / 2);
        hi = std::max(hi, p.intensity * 2);
    }
    const double top = std::max(pk.fp32_gflops, pk.low_gflops);
    double ylo = pk.bandwidth_gbs * lo, yhi = top * 2.5;
    for (const RooflinePoint& p : r.points) {
        ylo = std::min(ylo, p.achieved_gflops / 2);
        yhi = std::max(yhi, p.achieved_gflops * 2);
    }

    const QColor text = palette().color(QPalette::WindowText);
    if (low) {
        low_roof_ = makeGraph(tr("%1 roof: %2 GFLOP/s")
                                  .arg(QString::fromStdString(pk.low_precision))
                                  .arg(format::number(pk.low_gflops, 4)),
                              QPen(kLowRoofColor, 2, Qt::DashLine), true);
        low_roof_->setData({lo, pk.ridge(true), hi},
                           {pk.bandwidth_gbs * lo, pk.low_gflops, pk.low_gflops}, true);
    }
    roof_ = makeGraph(tr("fp32 roof: %1 GFLOP/s, %2 GB/s")
                          .arg(format::number(pk.fp32_gflops, 4))
                          .arg(format::number(pk.bandwidth_gbs, 4)),
                      QPen(kRoofColor, 2.5), true);
    roof_->setData({lo, pk.ridge(), hi}, {pk.bandwidth_gbs * lo, pk.fp32_gflops, pk.fp32_gflops},
                   true);
    QCPGraph* ridge_line = makeGraph(QString(), QPen(text, 1, Qt::DotLine), false);
    ridge_line->setData({pk.ridge(), pk.ridge()}, {ylo, pk.fp32_gflops}, true);
    QCPGraph* ridge =
        makeGraph(tr("ridge: %1 FLOP/byte").arg(format::number(pk.ridge(), 3)), Qt::NoPen, true);
    ridge->setLineStyle(QCPGraph::lsNone);
    ridge->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, text, text, 10));
    ridge->setData({pk.ridge()}, {pk.fp32_gflops});
    for (Bound bound : {Bound::Memory, Bound::Compute}) {
        QCPGraph* key = makeGraph(boundText(bound), Qt::NoPen, true);
        key->setLineStyle(QCPGraph::lsNone);
        key->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, boundColor(bound), boundColor(bound), 9));
    }

    std::vector<QPointF> named; // labelled points, as shares of the log axis ranges
    for (int i = 0; i < int(r.points.size()); ++i) {
        const RooflinePoint& p = r.points[size_t(i)];
        QCPGraph* dot = makeGraph(QString::fromStdString(p.cost.name), Qt::NoPen, false);
        dot->setLineStyle(QCPGraph::lsNone);
        QColor fill = boundColor(p.bound);
        fill.setAlpha(190);
        dot->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc,
                                             QPen(boundColor(p.bound).darker(140), 1), fill,
                                             2 * pointRadius(i)));
        dot->setData({p.intensity}, {p.achieved_gflops});
        points_.push_back(dot);
        // The most time-consuming points are named, unless a named one sits close by (in
        // shares of the log ranges) and the names would overlap.
        const double fx = std::log(p.intensity / lo) / std::log(hi / lo);
        const double fy = std::log(p.achieved_gflops / ylo) / std::log(yhi / ylo);
        const bool crowded = std::any_of(named.begin(), named.end(), [&](const QPointF& n) {
            return std::abs(n.x() - fx) < kLabelGapX && std::abs(n.y() - fy) < kLabelGapY;
        });
        if (int(labels_.size()) < kLabelledPoints && !crowded) {
            named.emplace_back(fx, fy);
            // Names to the right of their dot, to the left near the right edge.
            const bool right_edge = fx > 0.7;
            const int r = int(pointRadius(i));
            auto* label = new QCPItemText(this);
            label->position->setCoords(p.intensity, p.achieved_gflops);
            label->setPositionAlignment((right_edge ? Qt::AlignRight : Qt::AlignLeft) |
                                        Qt::AlignBottom);
            label->setPadding(right_edge ? QMargins(0, 0, r + 2, r / 2)
                                         : QMargins(r + 2, 0, 0, r / 2));
            label->setText(shortName(p.cost.name));
            labels_.push_back(label);
        }
    }
    highlight_ = makeGraph(QString(), Qt::NoPen, false);
    highlight_->setLineStyle(QCPGraph::lsNone);

    size_t memory = 0;
    for (const RooflinePoint& p : r.points)
        memory += p.bound == Bound::Memory;
    title_->setText(r.points.empty()
                        ? tr("Roofline (%1 peaks): no operator with FLOPs, bytes and time")
                              .arg(QString::fromStdString(pk.source))
                        : tr("Roofline: %1 operators, %2 memory-bound, %3 compute-bound (%4 peaks)")
                              .arg(r.points.size())
                              .arg(memory)
                              .arg(r.points.size() - memory)
                              .arg(QString::fromStdString(pk.source)));
    legend->setVisible(true);
    xAxis->setRange(lo, hi);
    yAxis->setRange(ylo, yhi);
    applyPalette();
    replot(rpQueuedReplot);
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

void RooflineChart::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        replot(rpQueuedReplot);
    }
}

void RooflineChart::applyPalette() {
    stylePlot(*this);
    styleTitle(title_, palette(), font());
    const QColor text = palette().color(QPalette::WindowText);
    for (QCPItemText* label : labels_)
        label->setColor(text);
    if (message_) message_->setColor(text);
}

} // namespace ts::gui
