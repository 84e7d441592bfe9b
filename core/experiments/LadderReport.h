#pragma once
// The ladder's results as a terminal table, ladder.csv, ladder.md and a chart
// of images/s per rung (kept rungs in colour, dropped ones grey, each labelled
// with its speed-up; the baseline as a dashed line). The GUI draws the same chart.
#include <filesystem>
#include <string>

#include "experiments/Ladder.h"
#include "report/ChartSpec.h"

namespace ts {

std::string ladderTable(const LadderResult& result);
std::string ladderCsv(const LadderResult& result);
std::string ladderMarkdown(const LadderResult& result);
// One line: how much two runs of the baseline differ (the noise floor).
std::string noiseFloorLine(const LadderResult& result);
// One line: the best combination and its speed-up over the baseline.
std::string ladderVerdict(const LadderResult& result);

chart::BarChart ladderThroughputChart(const LadderResult& result);

namespace ladder_files {
inline constexpr const char* kCsv = "ladder.csv";
inline constexpr const char* kMarkdown = "ladder.md";
inline constexpr const char* kThroughputPng = "ladder_images_per_sec.png";
inline constexpr const char* kBestConfig = "best_config.json";
} // namespace ladder_files

// Writes the files above into `dir`; best_config.json holds the kept changes.
void writeLadderReport(const LadderResult& result, const std::filesystem::path& dir);

} // namespace ts
