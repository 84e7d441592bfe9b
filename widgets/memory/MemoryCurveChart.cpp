#include "memory/MemoryCurveChart.h"

#include <algorithm>
#include <cmath>

#include <QToolTip>

#include "common/Format.h"
#include "common/ThemePalette.h"

namespace ts::gui {
namespace {

double toMs(int64_t ns) {
    return double(ns) / 1e6;
}

// A drag shorter than this many pixels is a click: it clears the selection.
constexpr double kMinDragPixels = 4;

} // namespace

MemoryCurveChart::MemoryCurveChart(QWidget* parent) : ThemedPlot(parent) {
    setMouseTracking(true);
    xAxis->setLabel(tr("Time since the trace began (ms)"));
    allocated_ = addGraph();
    allocated_->setName(tr("Allocated"));
    allocated_->setLineStyle(QCPGraph::lsStepLeft);
    reserved_ = addGraph();
    reserved_->setName(tr("Reserved"));
    reserved_->setLineStyle(QCPGraph::lsStepLeft);
    peak_marker_ = addGraph();
    peak_marker_->setLineStyle(QCPGraph::lsNone);
    peak_marker_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted, 9));
    peak_marker_->removeFromLegend();
    peak_text_ = new QCPItemText(this);
    peak_text_->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
    peak_text_->setClipToAxisRect(false);
    peak_text_->setPadding(QMargins(2, 0, 2, 6));
    selection_rect_ = new QCPItemRect(this);
    for (QCPItemPosition* p : {selection_rect_->topLeft, selection_rect_->bottomRight}) {
        p->setTypeX(QCPItemPosition::ptPlotCoords);
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    selection_rect_->setVisible(false);
    // Below the axes: inside, it would cover the peak's label wherever the peak is.
    legendInRow(plotLayout()->rowCount(), 4);
    setMinimumHeight(200);
    connect(this, &QCustomPlot::mousePress, this, &MemoryCurveChart::onPress);
    connect(this, &QCustomPlot::mouseMove, this, &MemoryCurveChart::onMove);
    connect(this, &QCustomPlot::mouseRelease, this, &MemoryCurveChart::onRelease);
    connect(this, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) {
        setSelection(std::nullopt);
        emit selectionCleared();
    });
    clearContent();
}

void MemoryCurveChart::clearContent() {
    setContent(MemoryCurveContent{});
}

QString MemoryCurveChart::unitName() const {
    static const char* const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    const int power = int(std::lround(std::log(unit_) / std::log(1024.0)));
    return QString::fromLatin1(names[std::clamp(power, 0, 4)]);
}

void MemoryCurveChart::setContent(MemoryCurveContent content) {
    content_ = std::move(content);
    int64_t highest = 0;
    bool any_reserved = false;
    for (const MemoryPoint& p : content_.curve) {
        highest = std::max({highest, std::abs(p.allocated), p.reserved});
        any_reserved = any_reserved || p.reserved >= 0;
    }
    unit_ = 1;
    while (unit_ < 1024.0 * 1024 * 1024 * 1024 && double(highest) / unit_ >= 1024)
        unit_ *= 1024;
    const std::vector<MemoryPoint> drawn = downsampleCurve(content_.curve, kMaxPoints);
    QVector<double> t, allocated, reserved;
    for (const MemoryPoint& p : drawn) {
        t << toMs(p.t_ns);
        allocated << double(p.allocated) / unit_;
        reserved << (p.reserved >= 0 ? double(p.reserved) / unit_ : qQNaN());
    }
    // The curves hold their last value to the end of the trace.
    if (!drawn.empty() && content_.span_ns > drawn.back().t_ns) {
        t << toMs(content_.span_ns);
        allocated << allocated.back();
        reserved << reserved.back();
    }
    allocated_->setData(t, allocated, true);
    if (!any_reserved) reserved.clear();
    reserved_->setData(any_reserved ? t : QVector<double>{}, reserved, true);
    reserved_->setVisible(any_reserved);
    if (any_reserved)
        reserved_->addToLegend();
    else
        reserved_->removeFromLegend();
    allocated_->setName(content_.net ? tr("Net allocated since the trace began") : tr("Allocated"));
    const bool has_curve = !content_.curve.empty();
    peak_marker_->setData(QVector<double>{toMs(content_.peak_t_ns)},
                          QVector<double>{double(content_.peak) / unit_}, true);
    peak_marker_->setVisible(has_curve);
    peak_text_->setVisible(has_curve);
    peak_text_->position->setCoords(toMs(content_.peak_t_ns), double(content_.peak) / unit_);
    peak_text_->setText(peakLabel());
    titleElement()->setText(content_.title);
    yAxis->setLabel(tr("Memory (%1)").arg(unitName()));
    const double end_ms = std::max(toMs(content_.span_ns), t.isEmpty() ? 1.0 : t.back());
    xAxis->setRange(0, end_ms > 0 ? end_ms : 1.0);
    bool found = false;
    QCPRange y = allocated_->getValueRange(found);
    if (any_reserved) y.expand(reserved_->getValueRange(found));
    y.expand(0);
    yAxis->setRange(y.lower, y.upper > y.lower ? y.upper * 1.18 : y.lower + 1);
    placeSteps();
    setSelection(std::nullopt);
    refresh();
}

void MemoryCurveChart::placeSteps() {
    for (QCPItemStraightLine* line : step_lines_)
        removeItem(line);
    for (QCPItemText* label : step_labels_)
        removeItem(label);
    step_lines_.clear();
    step_labels_.clear();
    // Past a few dozen steps the lines would hide the curve.
    constexpr size_t kMaxStepLines = 40;
    if (content_.curve.empty() || content_.steps.size() > kMaxStepLines) return;
    for (const StepMark& step : content_.steps) {
        auto* line = new QCPItemStraightLine(this);
        line->point1->setCoords(toMs(step.start_ns), 0);
        line->point2->setCoords(toMs(step.start_ns), 1);
        line->setSelectable(false);
        step_lines_.push_back(line);
        auto* label = new QCPItemText(this);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(toMs(step.start_ns), 0);
        label->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
        label->setText(tr("step %1").arg(step.step));
        label->setSelectable(false);
        step_labels_.push_back(label);
    }
}

int MemoryCurveChart::pointsDrawn() const {
    return allocated_->dataCount();
}

bool MemoryCurveChart::hasReserved() const {
    return reserved_->visible();
}

QString MemoryCurveChart::peakLabel() const {
    if (content_.curve.empty()) return {};
    return tr("Peak %1 at %2 ms")
        .arg(format::bytes(double(content_.peak)))
        .arg(toMs(content_.peak_t_ns), 0, 'f', 2);
}

QString MemoryCurveChart::describeAt(int64_t t_ns) const {
    const auto& c = content_.curve;
    // The value shown at t: the last point at or before it.
    auto it = std::upper_bound(c.begin(), c.end(), t_ns,
                               [](int64_t t, const MemoryPoint& p) { return t < p.t_ns; });
    if (it == c.begin()) return {};
    const MemoryPoint& p = *std::prev(it);
    QString text = tr("%1 ms\n%2: %3")
                       .arg(toMs(t_ns), 0, 'f', 3)
                       .arg(allocated_->name())
                       .arg(format::bytes(double(p.allocated)));
    if (p.reserved >= 0) text += tr("\nReserved: %1").arg(format::bytes(double(p.reserved)));
    return text;
}

void MemoryCurveChart::setSelection(const std::optional<MemoryTimeRange>& range) {
    selection_ = range;
    if (range)
        showSelectionRect(toMs(range->start_ns), toMs(range->end_ns));
    else
        selection_rect_->setVisible(false);
    replot(QCustomPlot::rpQueuedReplot);
}

void MemoryCurveChart::showSelectionRect(double from_ms, double to_ms) {
    selection_rect_->topLeft->setCoords(std::min(from_ms, to_ms), 0);
    selection_rect_->bottomRight->setCoords(std::max(from_ms, to_ms), 1);
    selection_rect_->setVisible(true);
}

void MemoryCurveChart::onPress(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || content_.curve.empty()) return;
    if (!axisRect()->rect().contains(event->pos())) return;
    drag_from_ms_ = xAxis->pixelToCoord(event->pos().x());
}

void MemoryCurveChart::onMove(QMouseEvent* event) {
    const double at_ms = xAxis->pixelToCoord(event->pos().x());
    if (drag_from_ms_) {
        showSelectionRect(*drag_from_ms_, at_ms);
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const QString text = axisRect()->rect().contains(event->pos())
                             ? describeAt(int64_t(std::llround(at_ms * 1e6)))
                             : QString();
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void MemoryCurveChart::onRelease(QMouseEvent* event) {
    if (!drag_from_ms_) return;
    const double from_px = xAxis->coordToPixel(*drag_from_ms_);
    const double to_ms = xAxis->pixelToCoord(event->pos().x());
    const double from_ms = *drag_from_ms_;
    drag_from_ms_.reset();
    if (std::fabs(event->pos().x() - from_px) < kMinDragPixels) {
        setSelection(std::nullopt);
        emit selectionCleared();
        return;
    }
    const int64_t a = std::llround(std::min(from_ms, to_ms) * 1e6);
    const int64_t b = std::llround(std::max(from_ms, to_ms) * 1e6);
    setSelection(MemoryTimeRange{std::max<int64_t>(a, 0), b});
    emit rangeSelected(selection_->start_ns, selection_->end_ns);
}

void MemoryCurveChart::applyExtraTheme(const QPalette& p) {
    QColor fill = seriesColor(0);
    allocated_->setPen(QPen(seriesColor(0), 1.6));
    fill.setAlpha(60);
    allocated_->setBrush(fill);
    reserved_->setPen(QPen(seriesColor(1), 1.4, Qt::DashLine));
    peak_marker_->setPen(QPen(p.color(QPalette::Text)));
    peak_marker_->setScatterStyle(QCPScatterStyle(
        QCPScatterStyle::ssTriangleInverted, p.color(QPalette::Text), p.color(QPalette::Text), 9));
    peak_text_->setColor(p.color(QPalette::Text));
    QColor step_colour = p.color(QPalette::Text);
    step_colour.setAlpha(110);
    for (QCPItemStraightLine* line : step_lines_)
        line->setPen(QPen(step_colour, 1, Qt::DotLine));
    for (QCPItemText* label : step_labels_)
        label->setColor(step_colour);
    QColor shade = p.color(QPalette::Highlight);
    selection_rect_->setPen(QPen(shade, 1));
    shade.setAlpha(50);
    selection_rect_->setBrush(shade);
}

} // namespace ts::gui
