#pragma once
// The details of one trace event as HTML for the timeline's side panel:
// shapes, duration and self time, FLOPs, memory, its call path and its
// forward <-> backward partner (links "event:N" select another event).
#include <cstdint>

#include <QString>

namespace ts::gui {

class TimelineLayout;

QString eventDetailsHtml(const TimelineLayout& layout, int32_t event);
// Parses "event:N" links; -1 for anything else.
int32_t eventFromLink(const QString& link);

} // namespace ts::gui
