#pragma once
// Images/s and memory against the swept value, side by side in one plot (one
// PNG), drawn from the report's own two charts (sweepThroughputChart,
// sweepMemoryChart): the first key's values as evenly spaced categories in
// run order, one line per value of the second key in a grid, and the
// predicted need of points the memory guard skipped as hollow markers. A sweep
// over processes shows its speedup chart (sweepScalingChart) in place of memory.
#include <vector>

#include "charts/SpecPlot.h"
#include "charts/ThemedPlot.h"
#include "experiments/Sweep.h"

namespace ts::gui {

class SweepCharts : public ThemedPlot {
    Q_OBJECT
public:
    explicit SweepCharts(QWidget* parent = nullptr);
    void setResult(const SweepResult& result);
    void clear();

    // For tests: the lines of each panel (one per value of the second key).
    const std::vector<QCPGraph*>& throughputLines() const { return throughput_lines_; }
    const std::vector<QCPGraph*>& memoryLines() const { return memory_lines_; }
    // A sweep over processes: measured speedup line(s), then the ideal one.
    const std::vector<QCPGraph*>& scalingLines() const { return scaling_lines_; }
    QCPGraph* predictedMarkers() const { return predicted_; }
    QStringList categories() const { return categories_; }

private:
    SpecPanel throughput_;
    SpecPanel memory_;
    std::vector<QCPGraph*> throughput_lines_;
    std::vector<QCPGraph*> memory_lines_;
    std::vector<QCPGraph*> scaling_lines_;
    QCPGraph* predicted_ = nullptr;
    QStringList categories_;
};

} // namespace ts::gui
