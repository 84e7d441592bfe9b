#pragma once
// The area selected on the timeline (analysis/AreaSummary.h's TraceArea):
// its lanes shaded over its time range, with its two edges drawn across the
// whole height. Painted in content coordinates over the boxes.
#include <QPalette>
#include <QSize>

#include "timeline/TimelinePainter.h"

class QPainter;

namespace ts::gui {

void paintArea(QPainter& p, QSize size, const TimelineScene& s, const QPalette& palette);

} // namespace ts::gui
