#pragma once
// The parts of a timeline frame that come from TimelineTracks rather than
// from single events: step shading (host lanes by the step's CPU range,
// device lanes by the range of the device work the step launched, so the
// GPU's lag behind the CPU shows), the counter rows (GPU utilization per
// pixel column, memory allocated and reserved with the peak marked) and the
// launch arrows of the selection. Painted in content coordinates: the
// painter is translated so x = 0 is the track's left edge and y = 0 the top
// of the content.
#include <QColor>
#include <QPalette>
#include <QSize>
#include <QString>

#include "timeline/TimelinePainter.h"

class QPainter;

namespace ts::gui {

// a blended towards b by weight_b quarters (0..4).
QColor mixColors(const QColor& a, const QColor& b, int weight_b);
// "GPU 0 utilization", "GPU 0 memory", "Queue, GPU 0 stream 7", ...: the
// name of counter row `index` of the scene (its tracks', then its values').
QString counterRowName(const TimelineScene& s, int index);
// What a tooltip says about counter row `index` at pixel column x.
QString counterRowValue(const TimelineScene& s, int index, double x);

void paintStepShading(QPainter& p, QSize size, const TimelineScene& s, const QPalette& pal);
void paintCounterRows(QPainter& p, const TimelineScene& s, const QPalette& pal);
void paintLaunchArrows(QPainter& p, const TimelineScene& s, const QPalette& pal);
// Names of the counter rows in the gutter (widget coordinates).
void paintCounterLabels(QPainter& p, QSize size, const TimelineScene& s, const QPalette& pal);

} // namespace ts::gui
