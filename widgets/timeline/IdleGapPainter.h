#pragma once
// The GPU streams' idle gaps (HTA's idle-time breakdown, analysis/IdleTime.h)
// shaded on the timeline by cause, behind the stream's kernels: where the
// GPU waited for the host, between kernels launched in time, or for
// something else. Painted in content coordinates, like TrackPainter.
#include <QColor>
#include <QSize>
#include <QString>

#include "analysis/IdleTime.h"
#include "timeline/TimelinePainter.h"

class QPainter;

namespace ts::gui {

// The shade of a cause (translucent, over the lane's background).
QColor idleCauseColor(IdleCause cause);
// "host wait", "kernel wait", "other".
QString idleCauseTitle(IdleCause cause);

void paintIdleGaps(QPainter& p, QSize size, const TimelineScene& s);

// The gap of `idle` on `lane` that holds time `t_ns`, or null.
const IdleGap* idleGapAt(const IdleBreakdown& idle, int32_t lane, double t_ns);

} // namespace ts::gui
