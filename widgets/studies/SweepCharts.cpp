#include "studies/SweepCharts.h"

#include "experiments/SweepReport.h"
#include "experiments/SweepScaling.h"

namespace ts::gui {
namespace {

std::vector<QCPGraph*> graphs(const DrawnSpec& drawn, size_t count) {
    std::vector<QCPGraph*> out;
    for (size_t i = 0; i < count && i < drawn.series.size(); ++i)
        out.push_back(qobject_cast<QCPGraph*>(drawn.series[i]));
    return out;
}

} // namespace

SweepCharts::SweepCharts(QWidget* parent) : ThemedPlot(parent) {
    plotLayout()->clear(); // also deletes the default axis rect and legend
    auto* panels = new QCPLayoutGrid;
    plotLayout()->addElement(0, 0, panels);
    throughput_ = addSpecPanel(*this, panels, 0, 0);
    memory_ = addSpecPanel(*this, panels, 0, 1);
    setMinimumSize(420, 260);
    clear();
}

void SweepCharts::clear() {
    setResult(SweepResult());
}

void SweepCharts::setResult(const SweepResult& r) {
    const DrawnSpec ips = drawSpec(sweepThroughputChart(r), throughput_);
    const chart::XyChart memory_chart = sweepMemoryChart(r);
    const DrawnSpec memory = drawSpec(memory_chart, memory_);
    categories_ = ips.ticks;
    throughput_lines_ = graphs(ips, ips.series.size());
    if (processesAxis(r.spec) >= 0) {
        // Jobs of several processes have no memory figure: their panel shows
        // the speedup against ideal scaling instead.
        const DrawnSpec scaling = drawSpec(sweepScalingChart(r), memory_);
        scaling_lines_ = graphs(scaling, scaling.series.size());
        memory_lines_.clear();
        predicted_ = nullptr;
        refresh();
        return;
    }
    scaling_lines_.clear();
    // The memory chart ends with the predicted markers when some point was skipped.
    const bool predicted = !memory_chart.series.empty() && !memory_chart.series.back().line;
    memory_lines_ = graphs(memory, memory.series.size() - (predicted ? 1 : 0));
    predicted_ = predicted ? qobject_cast<QCPGraph*>(memory.series.back()) : nullptr;
    refresh();
}

} // namespace ts::gui
