#pragma once
// The critical path (analysis/CriticalPath.h) drawn on the timeline: a bar
// under each stretch of an event's time on the path, and a line for each of
// its edges that crosses rows (a launch, a kernel gap, a synchronisation).
// Painted in content coordinates, like TrackPainter, over the boxes.
#include <cstdint>
#include <vector>

#include <QColor>
#include <QSize>

#include "timeline/TimelinePainter.h"

class QPainter;

namespace ts::gui {

QColor criticalPathColor();
void paintCriticalPath(QPainter& p, QSize size, const TimelineScene& s);
// Per event of `trace`: 1 when the path runs through it.
std::vector<uint8_t> eventsOnPath(const Trace& trace, const CriticalPathReport& report);

} // namespace ts::gui
