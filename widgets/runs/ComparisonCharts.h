#pragma once
// Bar charts comparing runs side by side, drawn from the comparison report's
// own charts (comparisonCharts): throughput, epoch time, peak memory and
// accuracy in a 2 x 2 grid of one plot, so that it exports as one PNG.
#include <vector>

#include <QHash>

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

    // Half the interval of a run's images/s over its steady-state steps (the
    // throughput chart's error bar), NaN without steps; read once per directory.
    double imagesPerSecError(const QString& dir);

private:
    std::vector<SpecPanel> panels_;
    int run_count_ = 0;
    QHash<QString, double> errors_; // by run directory
};

} // namespace ts::gui
