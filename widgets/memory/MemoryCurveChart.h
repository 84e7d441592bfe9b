#pragma once
// The Memory tab's chart of one device: allocated bytes (filled steps) and
// reserved bytes (dashed steps) over the trace, the peak marked and labelled.
// Dragging across it selects a time range (shaded) that the tab's tables then
// cover; a double click or a click without dragging selects the whole trace.
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/MemoryRecords.h"
#include "analysis/MemoryView.h"
#include "charts/ThemedPlot.h"
#include "trace/Trace.h"

namespace ts::gui {

struct MemoryCurveContent {
    QString title;                   // "GPU0: allocated and reserved"
    std::vector<MemoryPoint> curve;  // by time, relative to the trace's origin
    int64_t peak = 0, peak_t_ns = 0; // of the allocated bytes
    int64_t span_ns = 0;             // the trace's length, so every device shares the x axis
    bool net = false;            // the curve is the running sum of changes, not the device's totals
    std::vector<StepMark> steps; // drawn as labelled lines, so memory reads per step
};

class MemoryCurveChart : public ThemedPlot {
    Q_OBJECT
public:
    // Points drawn at most: per bucket its lowest and highest (downsampleCurve).
    static constexpr size_t kMaxPoints = 4000;

    explicit MemoryCurveChart(QWidget* parent = nullptr);

    void setContent(MemoryCurveContent content);
    void clearContent();
    void setSelection(const std::optional<MemoryTimeRange>& range);
    const std::optional<MemoryTimeRange>& selection() const { return selection_; }

    int pointsDrawn() const;
    bool hasReserved() const;
    QString peakLabel() const;
    // What hovering at `t_ns` shows.
    QString describeAt(int64_t t_ns) const;

signals:
    void rangeSelected(qint64 start_ns, qint64 end_ns);
    void selectionCleared();

protected:
    void applyExtraTheme(const QPalette& palette) override;

private:
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void onRelease(QMouseEvent* event);
    void showSelectionRect(double from_ms, double to_ms);
    void placeSteps();
    QString unitName() const;

    MemoryCurveContent content_;
    QCPGraph* allocated_ = nullptr;
    QCPGraph* reserved_ = nullptr;
    QCPGraph* peak_marker_ = nullptr;
    QCPItemText* peak_text_ = nullptr;
    QCPItemRect* selection_rect_ = nullptr;
    std::vector<QCPItemStraightLine*> step_lines_;
    std::vector<QCPItemText*> step_labels_;
    std::optional<MemoryTimeRange> selection_;
    std::optional<double> drag_from_ms_;
    double unit_ = 1; // bytes per axis unit: 1, 1024, 1024², ... by the largest value
};

} // namespace ts::gui
