#pragma once
// The details of one trace event as HTML for the timeline's side panel:
// shapes, duration and self time, FLOPs, memory, its call path and its
// forward <-> backward partner, the launches (links "event:N" select
// another event).
#include <cstdint>

#include <QString>

#include "analysis/IdleTime.h"
#include "analysis/LaunchIndex.h"

namespace ts::gui {

class TimelineLayout;

// With `launches`: also the runtime call that launched a kernel (and the
// delay until it ran), or the device work an operator or call launched.
QString eventDetailsHtml(const TimelineLayout& layout, int32_t event,
                         const LaunchIndex* launches = nullptr);
// An idle gap of a stream (`gap`: its index in idle.gaps): its cause, what
// the cause means, how long, and the work after it with its launch.
QString idleGapDetailsHtml(const TimelineLayout& layout, const IdleBreakdown& idle, int gap,
                           const LaunchIndex* launches = nullptr);
// Parses "event:N" links; -1 for anything else.
int32_t eventFromLink(const QString& link);

} // namespace ts::gui
