#pragma once
// Horizontal zoom and pan maths of the timeline: which time span is visible
// across how many pixels. Pure value type, tested directly.
#include <cstdint>

namespace ts::gui {

struct TimelineViewport {
    // Closest zoom: 20 ps per pixel, i.e. a 1 ns event is 50 px wide.
    static constexpr double kMinNsPerPx = 0.02;

    double start_ns = 0; // time at x = 0 of the track area
    double ns_per_px = 1;
    int width_px = 1;
    double min_ns = 0; // trace bounds
    double max_ns = 1;

    double endNs() const { return start_ns + ns_per_px * width_px; }
    double visibleNs() const { return ns_per_px * width_px; }
    double xOf(double t_ns) const { return (t_ns - start_ns) / ns_per_px; }
    double timeAt(double x) const { return start_ns + x * ns_per_px; }

    void setBounds(double lo_ns, double hi_ns);
    // Keeps the visible start and the scale; clamps.
    void setWidth(int px);
    // Shows the whole trace.
    void fit();
    // factor > 1 zooms in; the time under pixel x stays under x.
    void zoomAt(double x, double factor);
    // Content follows the mouse: dx > 0 moves it right (earlier times come into view).
    void panPx(double dx);
    // Shows [t0, t1] with a margin on both sides.
    void show(double t0_ns, double t1_ns, double margin_fraction = 0.05);
    void centerOn(double t_ns);
    // Keeps the scale within [kMinNsPerPx, whole trace] and the view on the trace.
    void clamp();
    double maxNsPerPx() const;
};

} // namespace ts::gui
