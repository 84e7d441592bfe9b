#pragma once
// The roofline written out: CSV, a chart and a plain-text summary. Output
// lives here, above the analysis that builds the roofline (analysis/Roofline.h).
#include <string>

#include "analysis/Roofline.h"
#include "report/ChartSpec.h"
#include "report/TableSpec.h"

namespace ts {

namespace roofline_column {
inline constexpr const char* kName = "name";
inline constexpr const char* kTimeMs = "time_ms";
inline constexpr const char* kIntensity = "arithmetic_intensity";
inline constexpr const char* kAchieved = "achieved_gflops";
inline constexpr const char* kRoof = "roof_gflops";
inline constexpr const char* kEfficiency = "efficiency";
inline constexpr const char* kBound = "bound";
} // namespace roofline_column

// The data behind the chart, in raw units (ns, FLOPs, bytes) for other tools.
std::string rooflineCsv(const Roofline& roofline);
// The roofline's table as the CLI prints it and the GUI shows it: a row per
// placed operator or kernel, in the roofline's order (by time, descending).
// Shares and the fraction of the roof are ratios behind "12.5%".
table::TableSpec rooflineTable(const std::vector<RooflinePoint>& points);
// "memory-bound", "compute-bound".
const char* boundLabel(Bound bound);
// Log-log chart: roofs, ridge, and the operators as dots sized by their share
// of the time (the `labelled` most time-consuming ones named). The GUI's
// roofline draws this chart and adds hover and selection.
chart::XyChart rooflineChart(const Roofline& roofline, const std::string& title,
                             size_t labelled = 8);
// Diameter in pixels of a point's dot.
double rooflineMarkerSize(const RooflinePoint& point);
// Plain-text summary: peaks, ridge, the operators with their bound.
std::string rooflineText(const Roofline& roofline, size_t limit = 20);

} // namespace ts
