#pragma once
// The roofline written out: CSV, a chart and a plain-text summary. Output
// lives here, above the analysis that builds the roofline (analysis/Roofline.h).
#include <string>

#include "analysis/Roofline.h"
#include "report/ChartSpec.h"

namespace ts {

std::string rooflineCsv(const Roofline& roofline);
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
