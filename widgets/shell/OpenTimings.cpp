#include "shell/OpenTimings.h"

#include <chrono>

namespace ts::gui {
namespace {

using Clock = std::chrono::steady_clock; // CLOCK_MONOTONIC with libstdc++ on Linux

// Initialised with the program's statics, before main and QApplication.
const Clock::time_point kStart = Clock::now();

double seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

} // namespace

double secondsSinceStart() {
    return seconds(Clock::now() - kStart);
}

QString shownTimingLine(const QString& path, const OpenTimes& times) {
    return QStringLiteral("timings: %1: read %2 s (%3), analysis %4 s%5, shown %6 s after start")
        .arg(path)
        .arg(times.read_s, 0, 'f', 2)
        .arg(times.from_index ? QStringLiteral("from its index") : QStringLiteral("JSON"))
        .arg(times.analysis_s, 0, 'f', 2)
        .arg(times.overview_cached ? QStringLiteral(" (Overview cached)") : QString())
        .arg(secondsSinceStart(), 0, 'f', 2);
}

QString drawnTimingLine() {
    const Clock::time_point now = Clock::now();
    return QStringLiteral("timings: timeline drawn %1 s after start (monotonic %2 s)")
        .arg(seconds(now - kStart), 0, 'f', 2)
        .arg(seconds(now.time_since_epoch()), 0, 'f', 6);
}

} // namespace ts::gui
