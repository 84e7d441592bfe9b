#pragma once
// What a chart shows, without drawing it: the report writers describe their
// charts with these structs, and the Qt side (widgets/charts) draws the same
// description in the GUI and, offscreen, for the reports. Keeping it
// domain-free lets one drawing code serve every report.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ts::chart {

struct Color {
    uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Color& o) const { return r == o.r && g == o.g && b == o.b; }
    bool operator!=(const Color& o) const { return !(*this == o); }
};

// The i-th colour of a fixed palette that stays distinguishable in print.
Color paletteColor(size_t i);
// Bars that stand for "not chosen" or "before": neutral, next to the palette.
inline constexpr Color kNeutralColor{170, 170, 170};

struct BarSeries {
    std::string name;
    std::vector<double> values; // one per category; NaN = no bar
    Color color;
    // Optional, one per category: text over the bar (over the axis where the
    // value is NaN, e.g. "skipped"); empty strings print nothing. Without
    // labels, the chart's value_labels decides.
    std::vector<std::string> labels;
    // Optional, one per category: half-height of an error bar (NaN = none).
    std::vector<double> errors;
};

// A horizontal dashed line across the chart (a baseline, an overall figure);
// named lines appear in the legend.
struct ReferenceLine {
    std::string name;
    double value = 0;
    Color color;
};

struct BarChart {
    std::string title;
    std::string x_label, y_label;
    std::vector<std::string> categories;
    std::vector<BarSeries> series;
    bool value_labels = true; // print each bar's value above it (series without labels)
    // Series share one full-width bar per category instead of standing side by
    // side: for series that split categories between them (kept / not kept).
    bool overlay = false;
    std::vector<ReferenceLine> lines;
};

struct XySeries {
    std::string name;
    std::vector<double> xs, ys; // NaN y = gap in the line
    Color color;
    bool line = true;
    bool markers = true;
    std::vector<std::string> point_labels; // optional text next to each point
    // Optional marker diameter of each point in pixels (e.g. by time share);
    // empty = one default size.
    std::vector<double> marker_sizes;
    bool dashed = false;         // the line
    bool hollow_markers = false; // rings instead of discs: predicted, not measured
    // Optional, one per point: half-height of an error bar (NaN = none).
    std::vector<double> errors;
};

struct XyChart {
    std::string title;
    std::string x_label, y_label;
    bool log_x = false, log_y = false;
    std::vector<XySeries> series;
    // Custom x ticks (value, label), e.g. categorical batch sizes; empty = automatic.
    std::vector<std::pair<double, std::string>> x_ticks;
};

using ChartSpec = std::variant<BarChart, XyChart>;

// Compact number for axis labels and bar values: 0.25, 12.5, 1.2k, 3.4M.
std::string formatCompact(double value);

} // namespace ts::chart
