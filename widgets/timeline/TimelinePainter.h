#pragma once
// Draws the timeline (time ruler, step bands, lane labels, event boxes, search
// and selection highlights) for one viewport. Kept apart from the widget so
// that bench_timeline measures exactly what a frame costs.
#include <cstdint>
#include <vector>

#include <QFont>
#include <QPalette>
#include <QSize>
#include <QString>

#include "analysis/AreaSummary.h"
#include "analysis/CriticalPath.h"
#include "analysis/DiagnosisCounters.h"
#include "analysis/IdleTime.h"
#include "analysis/TimelineTracks.h"
#include "timeline/TimelineLayout.h"
#include "timeline/TimelinePalette.h"

class QPainter;

namespace ts::gui {

struct TimelineScene {
    const TimelineLayout* layout = nullptr;
    TimelineViewport view; // track area: x = 0 is the first pixel right of the gutter
    int scroll_y = 0;      // content pixels scrolled off the top
    int gutter_px = 160;   // lane names
    int ruler_px = 24;     // time axis
    int32_t selected = -1;
    int32_t linked = -1; // forward <-> backward partner of the selection
    const std::vector<uint8_t>* name_matches = nullptr; // per name id; null = no search
    const TimelineTracks* tracks = nullptr; // counters, step spans, launches; null = none
    std::vector<LaunchPair> arrows;         // launches of the selection, drawn as arrows
    const IdleBreakdown* idle = nullptr;    // the streams' idle gaps, shaded; null = none
    // Counter rows after the tracks' (queue length, bandwidth); null = none.
    const std::vector<ValueRow>* values = nullptr;
    // The critical path, drawn when `on_path` is set (1 per event on it):
    // the other events are dimmed then.
    const CriticalPathReport* critical_path = nullptr;
    const std::vector<uint8_t>* on_path = nullptr;
    // The area selected (shaded over its lanes and time); null = none.
    const TraceArea* area = nullptr;
    // Per event: 1 for the events a table row picked (an area row, a
    // query's result); the others are dimmed. Null = no such focus.
    const std::vector<uint8_t>* focus = nullptr;
};

class TimelinePainter {
public:
    // Colours depend on the trace and the palette; call when either changes.
    void prepare(const Trace& trace, const QPalette& palette);
    void paint(QPainter& painter, QSize size, const TimelineScene& scene, const QPalette& palette);
    int lastBoxCount() const { return int(boxes_.size()); }

private:
    void paintBoxes(QPainter& p, const TimelineScene& s, const QPalette& pal);
    void paintLabels(QPainter& p, const TimelineScene& s, const QPalette& pal);
    void paintOutline(QPainter& p, const TimelineScene& s, int32_t event, const QColor& color,
                      Qt::PenStyle style) const;
    void paintGutter(QPainter& p, QSize size, const TimelineScene& s, const QPalette& pal) const;
    void paintRuler(QPainter& p, QSize size, const TimelineScene& s, const QPalette& pal) const;
    float nameWidth(uint32_t name, const QFontMetrics& metrics);

    TimelinePalette colors_;
    std::vector<TimelineLayout::Box> boxes_;
    std::vector<QString> names_;     // trace names, converted once
    std::vector<float> name_widths_; // cached text widths, -1 = not measured yet
};

// Ruler tick spacing: 1, 2 or 5 x 10^k ns so that ticks are >= min_px apart.
double niceTickNs(double ns_per_px, double min_px);
// "1.25 ms" style label for a time offset.
QString timeLabel(double ns, double tick_ns);

} // namespace ts::gui
