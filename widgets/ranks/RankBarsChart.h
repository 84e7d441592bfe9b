#pragma once
// One horizontal stacked bar per rank, one colour per part (computation,
// overlapping, communication, other; or data transfer and synchronizing), in
// milliseconds; hovering names the part, its time and its share of the bar.
// The Distributed tab's two charts.
#include <vector>

#include <QStringList>

#include "charts/ThemedPlot.h"

namespace ts::gui {

struct RankBars {
    QString title;
    QStringList parts;                   // legend, bottom of the stack first
    QStringList ranks;                   // bar labels, top to bottom
    std::vector<std::vector<double>> ms; // [rank][part]
};

class RankBarsChart : public ThemedPlot {
    Q_OBJECT
public:
    explicit RankBarsChart(QWidget* parent = nullptr);

    void setBars(RankBars bars);
    const RankBars& bars() const { return bars_; }
    // "rank 1 · Communication: 1.17 ms (42.0 %)"; empty outside the bars.
    QString describeAt(double key, double value_ms) const;

private:
    void showHover(QMouseEvent* event);

    RankBars bars_;
    std::vector<QCPBars*> stacks_;
};

} // namespace ts::gui
