#pragma once
// `trainscope-cli compare`: runs side by side. comparison.csv (one row per
// run), bar charts (images/s, epoch time, peak memory, accuracy) and
// report.md: baseline-vs-others table with the step breakdown, the config keys
// that differ, the top operators of each profiled run, the advice for each run
// and each run's environment. The first run is the baseline.
#include <cstddef>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analysis/Advice.h"
#include "analysis/OpStats.h"
#include "report/ChartSpec.h"
#include "report/RunDirectory.h"

namespace ts {

struct ComparedRun {
    RunRecord record;
    std::string label;          // config name, made unique
    std::optional<OpTable> ops; // when the run was profiled
    int64_t profiled_steps = 0;
    std::vector<Advice> advice;

    // Best validation accuracy, else the last, else training accuracy; NaN if none.
    double accuracy() const;
    // Peak device memory on CUDA runs, else peak resident set.
    int64_t peakMemoryBytes() const;
};

// Loads each directory (RunFormatError names a bad one) with its ops and advice.
std::vector<ComparedRun> loadComparedRuns(const std::vector<std::filesystem::path>& dirs);
ComparedRun compareEntry(RunRecord record);

std::string comparisonCsv(const std::vector<ComparedRun>& runs);
std::string comparisonMarkdown(const std::vector<ComparedRun>& runs, size_t top_ops = 10);
// The headline figures as a terminal table.
std::string comparisonText(const std::vector<ComparedRun>& runs);

// The figures the comparison charts show, one per run: the GUI fills them from
// its run list, the report from the loaded runs.
struct ComparisonFigures {
    std::string label;
    double images_per_sec = 0; // median; <= 0 = unknown
    double epoch_time_s = 0;   // mean; <= 0 = unknown
    int64_t peak_rss_bytes = 0;
    int64_t peak_device_bytes = 0;
    double accuracy = 0; // 0..1, NaN = unknown (as ComparedRun::accuracy)
    // Half the interval of images/s over the run's steps (an error bar); NaN = none.
    double images_per_sec_error = std::numeric_limits<double>::quiet_NaN();
};
std::vector<ComparisonFigures> comparisonFigures(const std::vector<ComparedRun>& runs);
// Images/s, epoch time, peak memory (device memory only where some run has
// it) and accuracy, in that order.
std::vector<chart::BarChart> comparisonCharts(const std::vector<ComparisonFigures>& runs);

namespace compare_files {
inline constexpr const char* kCsv = "comparison.csv";
inline constexpr const char* kReport = "report.md";
inline constexpr const char* kImagesPng = "compare_images_per_sec.png";
inline constexpr const char* kEpochPng = "compare_epoch_time.png";
inline constexpr const char* kMemoryPng = "compare_peak_memory.png";
inline constexpr const char* kAccuracyPng = "compare_accuracy.png";
} // namespace compare_files

// comparison.csv, report.md and, where a chart renderer is installed, the four charts.
void writeComparison(const std::vector<ComparedRun>& runs, const std::filesystem::path& dir);

} // namespace ts
