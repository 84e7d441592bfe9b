#include "gpu/StepBreakdownChart.h"

#include <cmath>
#include <numeric>

#include <QToolTip>

#include "common/ThemePalette.h"

namespace ts::gui {

StepBreakdownChart::StepBreakdownChart(QWidget* parent) : ThemedPlot(parent) {
    setMouseTracking(true); // hover without a button pressed
    xAxis->grid()->setVisible(false);
    yAxis->setLabel(tr("Time (us)"));
    xAxis->setLabel(tr("Step"));
    legend->setVisible(true);
    titleElement()->setText(tr("Time per step"));
    // Beside the bars, not over them: eight categories make the legend as
    // tall as the plot, and inside it covered the last step's bar.
    axisRect()->insetLayout()->take(legend);
    axisRect()->insetLayout()->simplify();
    plotLayout()->addElement(1, 1, legend); // row 0 is the title
    plotLayout()->setColumnStretchFactor(1, 0.001);
    legend->setLayer(QStringLiteral("legend"));
    setMinimumHeight(220);
    connect(this, &QCustomPlot::mouseMove, this, &StepBreakdownChart::showHover);
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const int step = stepAt(event->position());
        if (step >= 0) emit stepClicked(step);
    });
}

namespace {

// Every step labelled up to a few dozen; beyond, every 2nd, 5th, 10th, 20th,
// 50th ... step, so a trace of thousands of steps keeps readable labels
// instead of a smear of overlapping ones (the bars are all drawn).
int labelStride(int64_t steps) {
    constexpr int kMaxLabels = 30;
    for (int64_t scale = 1;; scale *= 10)
        for (int64_t step : {1, 2, 5})
            if (steps <= kMaxLabels * step * scale) return static_cast<int>(step * scale);
}

} // namespace

void StepBreakdownChart::setContent(const OverviewContent& content) {
    clearPlottables();
    bars_.clear();
    categories_ = content.categories;
    steps_ = content.steps;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QVector<double> keys;
    double max_total = 0;
    const int stride = labelStride(int(steps_.size()));
    for (int i = 0; i < int(steps_.size()); ++i) {
        keys << i;
        if (i % stride == 0) ticker->addTick(i, steps_[size_t(i)].label);
        const auto& us = steps_[size_t(i)].us;
        max_total = qMax(max_total, std::accumulate(us.begin(), us.end(), 0.0));
    }
    QCPBars* below = nullptr;
    for (int c = 0; c < categories_.size(); ++c) {
        auto* bars = new QCPBars(xAxis, yAxis);
        bars->setName(categories_[c]);
        bars->setWidth(0.7);
        bars->setPen(Qt::NoPen);
        bars->setBrush(seriesColor(c));
        QVector<double> values;
        for (const OverviewStep& step : steps_)
            values << step.us[size_t(c)];
        bars->setData(keys, values, true);
        if (below) bars->moveAbove(below);
        below = bars;
        bars_ << bars;
    }
    xAxis->setTicker(ticker);
    xAxis->setRange(-0.6, qMax(1, int(steps_.size())) - 0.4);
    yAxis->setRange(0, max_total > 0 ? max_total * 1.05 : 1.0);
    refresh();
}

QString StepBreakdownChart::describeAt(int step, double us) const {
    if (step < 0 || step >= int(steps_.size()) || us < 0) return {};
    const std::vector<double>& values = steps_[size_t(step)].us;
    const double total = std::accumulate(values.begin(), values.end(), 0.0);
    double top = 0;
    for (size_t c = 0; c < values.size(); ++c) {
        top += values[c];
        if (values[c] > 0 && us < top)
            return tr("%1: %2 us (%3 % of step %4)")
                .arg(categories_[int(c)])
                .arg(values[c], 0, 'f', 1)
                .arg(total > 0 ? 100.0 * values[c] / total : 0.0, 0, 'f', 1)
                .arg(steps_[size_t(step)].label);
    }
    return {};
}

int StepBreakdownChart::stepAt(QPointF pos) const {
    const double key = xAxis->pixelToCoord(pos.x());
    const int step = int(std::lround(key));
    const bool on_bar = std::abs(key - step) <= 0.35 && step >= 0 && step < stepCount();
    return on_bar && !describeAt(step, yAxis->pixelToCoord(pos.y())).isEmpty() ? step : -1;
}

void StepBreakdownChart::showHover(QMouseEvent* event) {
    const QPointF pos = event->position();
    const int step = stepAt(pos);
    const QString text = step >= 0 ? describeAt(step, yAxis->pixelToCoord(pos.y())) : QString();
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace ts::gui
