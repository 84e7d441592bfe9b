#pragma once
// Bar charts comparing runs side by side, drawn from the comparison report's
// own charts (comparisonCharts): throughput, epoch time, peak memory and
// accuracy in a 2 x 2 grid of one plot, so that it exports as one PNG.
#include <vector>

#include "charts/SpecPlot.h"
#include "charts/ThemedPlot.h"
#include "runs/RunRow.h"

namespace ts::gui {

class ComparisonCharts : public ThemedPlot {
    Q_OBJECT
public:
    explicit ComparisonCharts(QWidget* parent = nullptr);
    void setRuns(const std::vector<RunRow>& runs);
    int runCount() const { return run_count_; }

private:
    std::vector<SpecPanel> panels_;
    int run_count_ = 0;
};

} // namespace ts::gui
