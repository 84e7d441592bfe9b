#pragma once
// Images/s per rung of the optimization ladder, drawn from the report's own
// chart (ladderThroughputChart): kept rungs in colour, dropped ones grey,
// skipped ones named where the bar would be, each bar labelled with its
// speed-up over the baseline (a dashed line).
#include "charts/SpecPlot.h"
#include "charts/ThemedPlot.h"
#include "experiments/Ladder.h"

namespace ts::gui {

class LadderChart : public ThemedPlot {
    Q_OBJECT
public:
    explicit LadderChart(QWidget* parent = nullptr);
    void setResult(const LadderResult& result);
    void clear();

    // For tests: the bars of kept and of dropped rungs (NaN where the other applies).
    QCPBars* keptBars() const { return kept_; }
    QCPBars* droppedBars() const { return dropped_; }
    int rungCount() const { return rungs_; }

private:
    QCPBars* kept_ = nullptr;
    QCPBars* dropped_ = nullptr;
    int rungs_ = 0;
};

} // namespace ts::gui
