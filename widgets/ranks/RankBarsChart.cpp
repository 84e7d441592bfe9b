#include "ranks/RankBarsChart.h"

#include <cmath>
#include <numeric>

#include <QToolTip>

#include "common/Format.h"
#include "common/ThemePalette.h"

namespace ts::gui {
namespace {

// Pixels: the title and the time axis with its label, and a rank's bar.
constexpr int kTitleAndAxis = 86;
constexpr int kRankHeight = 26;

} // namespace

RankBarsChart::RankBarsChart(QWidget* parent) : ThemedPlot(parent) {
    setMouseTracking(true);
    xAxis->setLabel(tr("Time per step (ms)"));
    yAxis->grid()->setVisible(false);
    legendInRow(plotLayout()->rowCount(), 4); // under the bars
    setMinimumHeightBesidesLegend(kTitleAndAxis, 150);
    connect(this, &QCustomPlot::mouseMove, this, &RankBarsChart::showHover);
}

void RankBarsChart::setBars(RankBars bars) {
    bars_ = std::move(bars);
    clearPlottables();
    stacks_.clear();
    const int n = bars_.ranks.size();
    // Rank 0 on top: the key axis runs upwards, so rank i sits at n - 1 - i.
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int r = 0; r < n; ++r)
        ticker->addTick(n - 1 - r, bars_.ranks[r]);
    yAxis->setTicker(ticker);
    yAxis->setRange(-0.6, n - 0.4);
    QCPBars* below = nullptr;
    double widest = 0;
    for (int p = 0; p < bars_.parts.size(); ++p) {
        auto* stack = new QCPBars(yAxis, xAxis);
        stack->setName(bars_.parts[p]);
        stack->setWidth(0.7);
        stack->setPen(Qt::NoPen);
        stack->setBrush(seriesColor(p));
        for (int r = 0; r < n; ++r)
            stack->addData(n - 1 - r, bars_.ms[size_t(r)][size_t(p)]);
        if (below) stack->moveAbove(below);
        below = stack;
        stacks_.push_back(stack);
    }
    for (const std::vector<double>& rank : bars_.ms)
        widest = std::max(widest, std::accumulate(rank.begin(), rank.end(), 0.0));
    xAxis->setRange(0, widest > 0 ? widest * 1.05 : 1.0);
    titleElement()->setText(bars_.title);
    setMinimumHeightBesidesLegend(kTitleAndAxis + kRankHeight * n, 150);
    refresh();
}

QString RankBarsChart::describeAt(double key, double value_ms) const {
    const int n = bars_.ranks.size();
    const int r = n - 1 - int(std::lround(key));
    if (r < 0 || r >= n || std::fabs(key - std::round(key)) > 0.35 || value_ms < 0) return {};
    const std::vector<double>& parts = bars_.ms[size_t(r)];
    const double total = std::accumulate(parts.begin(), parts.end(), 0.0);
    double right = 0;
    for (size_t p = 0; p < parts.size(); ++p) {
        right += parts[p];
        if (parts[p] > 0 && value_ms < right)
            return tr("%1 · %2: %3 (%4)")
                .arg(bars_.ranks[r], bars_.parts[int(p)], format::duration(parts[p]),
                     format::percent(total > 0 ? parts[p] / total : 0));
    }
    return {};
}

void RankBarsChart::showHover(QMouseEvent* event) {
    const QString text =
        describeAt(yAxis->pixelToCoord(event->pos().y()), xAxis->pixelToCoord(event->pos().x()));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace ts::gui
