#pragma once
// The roofline written out: CSV, a chart and a plain-text summary. Output
// lives here, above the analysis that builds the roofline (analysis/Roofline.h).
#include <string>

#include "analysis/Roofline.h"
#include "report/ChartPng.h"

namespace ts {

std::string rooflineCsv(const Roofline& roofline);
// Log-log chart: roofs, ridge, and the `labelled` most time-consuming points named.
chart::Image renderRooflineChart(const Roofline& roofline, const std::string& title,
                                 size_t labelled = 8);
// Plain-text summary: peaks, ridge, the operators with their bound.
std::string rooflineText(const Roofline& roofline, size_t limit = 20);

} // namespace ts
