#pragma once
// `trainscope --timings`: when each opened document was read, analysed and
// shown, and when the Timeline first drew it, printed to stderr. People read
// the seconds since start-up; bench_trace_import --gui reads the monotonic
// time of the first drawn frame and subtracts the time it spawned the GUI,
// so its figure covers the whole way from exec to pixels.
#include <QString>

#include "sources/Document.h"

namespace ts::gui {

using sources::OpenTimes;

// Seconds since this program's static initialisation (just before main).
double secondsSinceStart();

// "timings: PATH: read 0.12 s (from its index), analysis 0.13 s, shown 0.61 s after start";
// "analysis 0.05 s (Overview cached)" when the Overview came from its cache.
QString shownTimingLine(const QString& path, const OpenTimes& times);
// "timings: timeline drawn 0.65 s after start (monotonic 5123.456789 s)"; the
// monotonic clock is CLOCK_MONOTONIC, comparable between processes.
QString drawnTimingLine();

} // namespace ts::gui
