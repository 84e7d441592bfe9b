#include "gpu/AverageShareChart.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <QToolTip>

#include "common/ThemePalette.h"

namespace ts::gui {

namespace {

constexpr int kMinimumHeight = 160;
// The title, the bar and its axis with its label, above the legend (pixels).
constexpr int kBarAndTitle = 120;

} // namespace

AverageShareChart::AverageShareChart(QWidget* parent) : ThemedPlot(parent) {
    setMouseTracking(true); // hover without a button pressed
    yAxis->setVisible(false);
    yAxis->setRange(-0.5, 0.5);
    xAxis->setRange(0, 100);
    xAxis->setLabel(tr("Share of the average step (%)"));
    xAxis->grid()->setVisible(false);
    legendInRow(plotLayout()->rowCount(), 4); // below the bar, not over it
    titleElement()->setText(tr("Average step"));
    setMinimumHeightBesidesLegend(kBarAndTitle, kMinimumHeight);
    connect(this, &QCustomPlot::mouseMove, this, &AverageShareChart::showHover);
}

void AverageShareChart::setContent(const OverviewContent& content) {
    clearPlottables();
    bars_.clear();
    categories_ = content.categories;
    us_ = content.average_us;
    const double total = std::accumulate(us_.begin(), us_.end(), 0.0);
    QCPBars* below = nullptr;
    for (int c = 0; c < categories_.size(); ++c) {
        const double percent = total > 0 ? 100.0 * us_[size_t(c)] / total : 0.0;
        auto* bars = new QCPBars(yAxis, xAxis); // horizontal: the key axis is vertical
        bars->setName(tr("%1 %2 %").arg(categories_[c]).arg(percent, 0, 'f', 1));
        bars->setWidth(0.8);
        bars->setPen(Qt::NoPen);
        bars->setBrush(seriesColor(c));
        bars->addData(0, percent);
        if (below) bars->moveAbove(below);
        below = bars;
        bars_ << bars;
    }
    refresh();
}

QString AverageShareChart::describeAt(double percent) const {
    const double total = std::accumulate(us_.begin(), us_.end(), 0.0);
    if (total <= 0 || percent < 0) return {};
    double right = 0;
    for (size_t c = 0; c < us_.size(); ++c) {
        const double share = 100.0 * us_[c] / total;
        right += share;
        if (share > 0 && percent < right)
            return tr("%1: %2 us (%3 %)")
                .arg(categories_[int(c)])
                .arg(us_[c], 0, 'f', 1)
                .arg(share, 0, 'f', 1);
    }
    return {};
}

void AverageShareChart::showHover(QMouseEvent* event) {
    const QPointF pos = event->position();
    const bool onBar = std::abs(yAxis->pixelToCoord(pos.y())) <= 0.4;
    const QString text = onBar ? describeAt(xAxis->pixelToCoord(pos.x())) : QString();
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace ts::gui
