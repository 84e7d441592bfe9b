#include "live/LiveChart.h"

#include <QToolTip>

namespace ts::gui {
namespace {

constexpr int kLegendColumns = 4;

} // namespace

LiveChart::LiveChart(const QString& title, QWidget* parent)
    : ThemedPlot(parent), cursor_(new QCPItemStraightLine(this)) {
    titleElement()->setText(title);
    // The legend gets its own row under the title, items side by side, so it never hides data.
    legendInRow(1, kLegendColumns);
    legend->setMargins(QMargins(4, 0, 4, 0));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    setNoAntialiasingOnDrag(true);
    // Replot cost matters (once per tick on thousands of steps): filled areas
    // without antialiasing and fast polylines cut it several-fold.
    setNotAntialiasedElements(QCP::aeFills);
    setPlottingHint(QCP::phFastPolylines, true);
    cursor_->setVisible(false);
    cursor_->setSelectable(false);
    setMinimumWidth(240);
    setMinimumHeightBesidesLegend(125, 160); // the title and a plot that still reads
    applyTheme();
}

QCPGraph* LiveChart::addSeries(const QString& name, const QColor& color, QCPAxis* valueAxis) {
    QCPGraph* graph = addGraph(xAxis, valueAxis ? valueAxis : yAxis);
    graph->setName(name);
    graph->setPen(QPen(color, 1.6));
    graph->setAdaptiveSampling(true);
    return graph;
}

void LiveChart::setFollowing(bool following) {
    following_ = following;
    if (following) updateRanges();
}

QCPRange LiveChart::dataKeyRange(bool* found) {
    QCPRange all;
    *found = false;
    for (int i = 0; i < plottableCount(); ++i) {
        bool has = false;
        const QCPRange r = plottable(i)->getKeyRange(has);
        if (!has) continue;
        all = *found ? QCPRange(qMin(all.lower, r.lower), qMax(all.upper, r.upper)) : r;
        *found = true;
    }
    return all;
}

void LiveChart::updateRanges() {
    if (following_) {
        bool found = false;
        const QCPRange data = dataKeyRange(&found);
        if (found) {
            const double lower =
                follow_window_ > 0 ? qMax(data.lower, data.upper - follow_window_) : data.lower;
            const double pad = qMax(0.5, (data.upper - lower) * 0.02);
            xAxis->setRange(lower - pad, data.upper + pad);
        }
    }
    fitValueAxes();
}

void LiveChart::fitValueAxes() {
    fitAxis(yAxis);
    if (yAxis2->visible() && fit_second_axis_) fitAxis(yAxis2);
}

void LiveChart::fitAxis(QCPAxis* axis) {
    bool any = false;
    QCPRange range;
    for (int i = 0; i < plottableCount(); ++i) {
        QCPAbstractPlottable* p = plottable(i);
        if (p->valueAxis() != axis || !p->visible()) continue;
        bool found = false;
        const QCPRange r = p->getValueRange(found, QCP::sdBoth, p->keyAxis()->range());
        if (!found) continue;
        range = any ? QCPRange(qMin(range.lower, r.lower), qMax(range.upper, r.upper)) : r;
        any = true;
    }
    if (!any) return;
    if (include_zero_) range.lower = qMin(0.0, range.lower);
    const double span = range.size() > 0 ? range.size() : qMax(1.0, qAbs(range.upper));
    axis->setRange(range.lower - (include_zero_ && range.lower == 0 ? 0 : span * 0.05),
                   range.upper + span * 0.08);
}

void LiveChart::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) emit userNavigated();
    QCustomPlot::mousePressEvent(event);
}

void LiveChart::wheelEvent(QWheelEvent* event) {
    emit userNavigated();
    QCustomPlot::wheelEvent(event);
    fitValueAxes();
    replot(rpQueuedReplot);
}

void LiveChart::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() & Qt::LeftButton) {
        fitValueAxes(); // while panning, keep y fitted to what is visible
        return;
    }
    const QPointF pos = event->position();
    if (!hover_text_ || !axisRect()->rect().contains(pos.toPoint())) {
        leaveEvent(event);
        return;
    }
    const double key = xAxis->pixelToCoord(pos.x());
    const QString text = hoverText(key);
    cursor_->point1->setCoords(key, 0);
    cursor_->point2->setCoords(key, 1);
    cursor_->setVisible(!text.isEmpty());
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
    replot(rpQueuedReplot);
}

void LiveChart::leaveEvent(QEvent* event) {
    QCustomPlot::leaveEvent(event);
    if (cursor_->visible()) {
        cursor_->setVisible(false);
        replot(rpQueuedReplot);
    }
    QToolTip::hideText();
}

void LiveChart::applyExtraTheme(const QPalette& p) {
    // Many series share a narrow chart: a smaller legend keeps it to one row.
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    legend->setFont(small);
    cursor_->setPen(QPen(p.color(QPalette::Highlight), 1, Qt::DashLine));
}

} // namespace ts::gui
