#include "experiments/SweepScaling.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "report/MarkdownTable.h"

namespace ts {
namespace {

// The value as written (the sweep and the report reader validate it).
int processesOf(const SweepRow& row, int axis) {
    return std::atoi(row.point.values[size_t(axis)].second.c_str());
}

// The other key's value (a grid's line), "" on a one-key sweep.
std::string lineOf(const SweepRow& row, int axis) {
    const size_t other = axis == 0 ? 1 : 0;
    return other < row.point.values.size() ? row.point.values[other].second : "";
}

bool completed(const SweepRow& row) {
    return row.result.outcome == PointOutcome::Completed && row.imagesPerSec() > 0;
}

const SweepRow* baselineOf(const SweepResult& result, const SweepRow& row, int axis) {
    const SweepRow* base = nullptr;
    for (const auto& other : result.rows)
        if (completed(other) && lineOf(other, axis) == lineOf(row, axis) &&
            (!base || processesOf(other, axis) < processesOf(*base, axis)))
            base = &other;
    return base;
}

std::vector<int> processCounts(const SweepResult& result, int axis) {
    std::vector<int> counts;
    for (const auto& row : result.rows)
        counts.push_back(processesOf(row, axis));
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    return counts;
}

std::string figuresLabel(const ScalingFigures& f) {
    return fixed(f.speedup, 2) + "x, " + fixed(f.efficiency * 100, 0) + "%";
}

} // namespace

int processesAxis(const SweepSpec& spec) {
    for (size_t i = 0; i < spec.axes.size(); ++i)
        if (spec.axes[i].key == kProcessesKey) return int(i);
    return -1;
}

ScalingFigures scalingFigures(const SweepResult& result, const SweepRow& row) {
    ScalingFigures f;
    const int axis = processesAxis(result.spec);
    if (axis < 0 || !completed(row)) return f;
    const SweepRow* base = baselineOf(result, row, axis);
    if (!base) return f;
    f.baseline_processes = processesOf(*base, axis);
    f.speedup = row.imagesPerSec() / base->imagesPerSec();
    f.efficiency = f.speedup / (double(processesOf(row, axis)) / f.baseline_processes);
    return f;
}

chart::XyChart sweepScalingChart(const SweepResult& result) {
    chart::XyChart c;
    const int axis = processesAxis(result.spec);
    if (axis < 0) return c;
    c.title = result.spec.base.name + ": speedup by processes";
    c.x_label = "processes";
    c.y_label = "speedup";
    // Counts as evenly spaced categories, as the sweep's other charts place
    // their values (1, 2, 4, 8 then read as a log scale).
    const auto counts = processCounts(result, axis);
    for (size_t i = 0; i < counts.size(); ++i)
        c.x_ticks.emplace_back(double(i), std::to_string(counts[i]));
    std::vector<std::string> lines;
    for (const auto& row : result.rows)
        if (std::find(lines.begin(), lines.end(), lineOf(row, axis)) == lines.end())
            lines.push_back(lineOf(row, axis));
    const size_t other_axis = axis == 0 ? 1 : 0;
    const std::string other =
        other_axis < result.spec.axes.size() ? result.spec.axes[other_axis].key : "";
    for (size_t l = 0; l < lines.size(); ++l) {
        chart::XySeries s;
        s.name = other.empty() ? "measured" : other + "=" + lines[l];
        s.color = chart::paletteColor(l);
        for (size_t i = 0; i < counts.size(); ++i) {
            ScalingFigures f;
            for (const auto& row : result.rows)
                if (lineOf(row, axis) == lines[l] && processesOf(row, axis) == counts[i])
                    f = scalingFigures(result, row);
            s.xs.push_back(double(i));
            s.ys.push_back(f.speedup);
            if (lines.size() == 1)
                s.point_labels.push_back(std::isnan(f.speedup) ? "" : figuresLabel(f));
        }
        c.series.push_back(std::move(s));
    }
    // Linear from the first line's baseline (the fewest processes that
    // completed on it): speedup n / n0 at n processes, nothing below n0.
    int baseline = counts.front();
    for (const auto& row : result.rows)
        if (lineOf(row, axis) == lines.front()) {
            const ScalingFigures f = scalingFigures(result, row);
            if (f.baseline_processes > 0) baseline = f.baseline_processes;
        }
    chart::XySeries ideal;
    ideal.name = "ideal (linear)";
    ideal.color = chart::paletteColor(7);
    ideal.dashed = true;
    ideal.markers = false;
    for (size_t i = 0; i < counts.size(); ++i) {
        ideal.xs.push_back(double(i));
        ideal.ys.push_back(counts[i] < baseline ? std::numeric_limits<double>::quiet_NaN()
                                                : double(counts[i]) / baseline);
    }
    c.series.push_back(std::move(ideal));
    return c;
}

std::string scalingSentence(const SweepResult& result) {
    const int axis = processesAxis(result.spec);
    if (axis < 0) return "";
    std::ostringstream out;
    out << "Scaling (each process trains with the same per-rank batch, so the global batch grows "
           "with the processes; images/s is the job's global rate):";
    bool any = false;
    for (const auto& row : result.rows) {
        const ScalingFigures f = scalingFigures(result, row);
        if (std::isnan(f.speedup) || processesOf(row, axis) == f.baseline_processes) continue;
        any = true;
        out << " " << row.point.label() << ": " << fixed(f.speedup, 2) << "x the images/s of "
            << f.baseline_processes << " (" << fixed(f.efficiency * 100, 0)
            << "% scaling efficiency";
        if (!std::isnan(row.allreduce_ms))
            out << "; allreduce " << fixed(row.allreduce_ms, 1) << " ms per step, "
                << fixed(row.overlap_pct, 0) << "% of it hidden behind backward, "
                << fixed(row.comm_wait_ms, 1) << " ms exposed";
        out << ").";
    }
    if (!any) out << " no point completed beside its baseline.";
    return out.str();
}

} // namespace ts
