#pragma once
// `trainscope --timings`: when each opened document was read, analysed and
// shown, and when the Timeline first drew it, printed to stderr. People read
// the seconds since start-up; bench_trace_import --gui reads the monotonic
// time of the first drawn frame and subtracts the time it spawned the GUI,
// so its figure covers the whole way from exec to pixels.
#include <QString>

namespace ts::gui {

// How long a document's trace took to read and to analyse (off the GUI
// thread), and whether it came from its trace index.
struct OpenTimes {
    double read_s = 0;
    double analysis_s = 0;
    bool from_index = false;
    // The Overview and the timeline's launches came from the Overview cache.
    bool overview_cached = false;
};

// Seconds since this program's static initialisation (just before main).
double secondsSinceStart();

// "timings: PATH: read 0.12 s (from its index), analysis 0.13 s, shown 0.61 s after start";
// "analysis 0.05 s (Overview cached)" when the Overview came from its cache.
QString shownTimingLine(const QString& path, const OpenTimes& times);
// "timings: timeline drawn 0.65 s after start (monotonic 5123.456789 s)"; the
// monotonic clock is CLOCK_MONOTONIC, comparable between processes.
QString drawnTimingLine();

} // namespace ts::gui
