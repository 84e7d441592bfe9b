#include "timeline/TimelineViewport.h"

#include <algorithm>

namespace ts::gui {
namespace {

// Fully zoomed out, the trace fills the width with this margin on each side.
constexpr double kEdgeMargin = 0.02;

} // namespace

void TimelineViewport::setBounds(double lo_ns, double hi_ns) {
    min_ns = lo_ns;
    max_ns = std::max(hi_ns, lo_ns + 1.0);
}

double TimelineViewport::maxNsPerPx() const {
    return (max_ns - min_ns) * (1.0 + 2 * kEdgeMargin) / std::max(1, width_px);
}

void TimelineViewport::setWidth(int px) {
    width_px = std::max(1, px);
    clamp();
}

void TimelineViewport::fit() {
    ns_per_px = maxNsPerPx();
    start_ns = min_ns - (max_ns - min_ns) * kEdgeMargin;
}

void TimelineViewport::zoomAt(double x, double factor) {
    if (factor <= 0) return;
    const double anchor = timeAt(x);
    ns_per_px = std::clamp(ns_per_px / factor, kMinNsPerPx, maxNsPerPx());
    start_ns = anchor - x * ns_per_px;
    clamp();
}

void TimelineViewport::panPx(double dx) {
    start_ns -= dx * ns_per_px;
    clamp();
}

void TimelineViewport::show(double t0_ns, double t1_ns, double margin_fraction) {
    if (t1_ns < t0_ns) std::swap(t0_ns, t1_ns);
    const double span = std::max(t1_ns - t0_ns, kMinNsPerPx * width_px);
    const double total = span * (1.0 + 2 * margin_fraction);
    ns_per_px = std::clamp(total / std::max(1, width_px), kMinNsPerPx, maxNsPerPx());
    start_ns = (t0_ns + t1_ns) / 2 - visibleNs() / 2;
    clamp();
}

void TimelineViewport::centerOn(double t_ns) {
    start_ns = t_ns - visibleNs() / 2;
    clamp();
}

void TimelineViewport::clamp() {
    ns_per_px = std::clamp(ns_per_px, kMinNsPerPx, std::max(kMinNsPerPx, maxNsPerPx()));
    // The view may not leave the trace (plus the fit margin).
    const double margin = (max_ns - min_ns) * kEdgeMargin;
    const double lo = min_ns - margin;
    const double hi = max_ns + margin - visibleNs();
    start_ns = hi < lo ? lo : std::clamp(start_ns, lo, hi);
}

} // namespace ts::gui
