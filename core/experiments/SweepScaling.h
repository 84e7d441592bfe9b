#pragma once
// Scaling of a sweep over "processes" (data-parallel jobs of 1, 2, ... local
// ranks, each with the same per-rank batch): every point's speedup against
// the fewest processes on its line, its scaling efficiency, and a chart of
// both against ideal linear scaling. No torch.
#include <string>

#include "experiments/Sweep.h"
#include "report/ChartSpec.h"

namespace ts {

// Index of the "processes" axis, -1 when the sweep has none.
int processesAxis(const SweepSpec& spec);

struct ScalingFigures {
    double speedup = std::numeric_limits<double>::quiet_NaN(); // images/s / baseline's
    // speedup / (processes / baseline processes), the share of ideal linear
    // scaling reached: 1 = linear.
    double efficiency = std::numeric_limits<double>::quiet_NaN();
    int baseline_processes = 0; // 0: no completed baseline on the row's line
};

// `row` against the completed point with the fewest processes that shares
// its other key's value. NaN figures when either did not complete.
ScalingFigures scalingFigures(const SweepResult& result, const SweepRow& row);

// Speedup against processes (a line per value of the other key in a grid),
// each point labelled "1.80x, 90%", with the ideal line dashed (from the
// first line's baseline).
chart::XyChart sweepScalingChart(const SweepResult& result);

// "2 processes: 1.80x the images/s of 1 (90% scaling efficiency), ..." and
// how much of the allreduce time was hidden behind backward.
std::string scalingSentence(const SweepResult& result);

} // namespace ts
