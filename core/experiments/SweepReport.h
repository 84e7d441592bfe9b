#pragma once
// A sweep's results as a terminal table, sweep.csv, sweep.md and two charts:
// images/s and memory against the first swept key (one line per value of the
// second key in a grid). The GUI draws the same two charts. A sweep over
// "processes" adds speedup, efficiency and communication columns and a third
// chart, the speedup (experiments/SweepScaling.h).
#include <filesystem>
#include <string>

#include "experiments/Sweep.h"
#include "report/ChartSpec.h"

namespace ts {

std::string sweepTable(const SweepResult& result);
std::string sweepCsv(const SweepResult& result);
std::string sweepMarkdown(const SweepResult& result);
// How often each point ran, what the intervals are, and which points are not
// measurably slower than the fastest.
std::string sweepNoiseSentence(const SweepResult& result);

// The report's charts; the memory one adds the predicted need of points the
// memory guard skipped (hollow markers) on a one-key sweep.
chart::XyChart sweepThroughputChart(const SweepResult& result);
chart::XyChart sweepMemoryChart(const SweepResult& result);

namespace sweep_files {
inline constexpr const char* kCsv = "sweep.csv";
inline constexpr const char* kMarkdown = "sweep.md";
inline constexpr const char* kThroughputPng = "sweep_images_per_sec.png";
inline constexpr const char* kMemoryPng = "sweep_memory.png";
inline constexpr const char* kScalingPng = "sweep_scaling.png"; // sweeps over processes
} // namespace sweep_files

// Writes the four (five) files into `dir` (charts only once a point has completed,
// and only where a chart renderer is installed: report/ChartRenderer.h).
void writeSweepReport(const SweepResult& result, const std::filesystem::path& dir);

} // namespace ts
