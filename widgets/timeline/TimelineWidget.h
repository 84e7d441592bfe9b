#pragma once
// The trace timeline: one lane per thread, nested operators, wheel to zoom,
// drag to pan, W/A/S/D like Perfetto, click to select, double-click or F to
// zoom to the selection, Shift+drag to select an area (lanes and time), M
// for the area of the selected event. Painting is done by TimelinePainter.
#include <memory>
#include <optional>
#include <vector>

#include <QWidget>

#include "analysis/GpuDiagnoses.h"
#include "common/FrameMeter.h"
#include "timeline/TimelineLayout.h"
#include "timeline/TimelinePainter.h"

namespace ts::gui {

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget* parent = nullptr);

    // `tracks` of `trace` when already made (null: made here, once per trace).
    void setTrace(std::shared_ptr<const Trace> trace,
                  std::shared_ptr<const TimelineTracks> tracks = nullptr);
    const TimelineLayout& layout() const { return layout_; }
    // Counters, step spans and launch links of the trace; null without a trace.
    const TimelineTracks* tracks() const { return tracks_.get(); }
    // HTA's diagnoses of the trace shown: its streams' idle gaps are shaded
    // by cause (null: none; ignored unless made of the trace shown).
    void setDiagnoses(std::shared_ptr<const GpuDiagnoses> diagnoses,
                      const std::shared_ptr<const Trace>& of);
    const GpuDiagnoses* diagnoses() const { return diagnoses_.get(); }
    // Draws the diagnoses' critical path (of the first step) and dims the
    // events off it; false when there is no path to show.
    bool showCriticalPath(bool show);
    // Another window's path (GPU ▸ Critical Path chose it); ignored unless
    // made of the trace shown.
    void setCriticalPath(std::shared_ptr<const CriticalPathReport> path,
                         const std::shared_ptr<const Trace>& of);
    bool criticalPathShown() const { return scene_.on_path != nullptr; }
    // The idle gap under a widget position (its index in the idle
    // breakdown's gaps), -1 none.
    int idleGapAt(QPointF pos) const;
    // The launches drawn as arrows for the selection (at most kMaxArrows).
    const std::vector<LaunchPair>& launchArrows() const { return scene_.arrows; }
    static constexpr size_t kMaxArrows = 2000;
    // The area selected (Shift+drag, M), null none.
    const TraceArea* area() const { return scene_.area; }
    // Dims every event but these (a table row's events); empty: none dimmed.
    void setFocusEvents(const std::vector<int32_t>& events);
    bool focusShown() const { return scene_.focus != nullptr; }
    const TimelineViewport& viewport() const { return scene_.view; }
    TimelineViewport& viewport() { return scene_.view; }
    int32_t selectedEvent() const { return scene_.selected; }
    int scrollY() const { return scene_.scroll_y; }
    int maxScrollY() const;
    const FrameMeter& frameMeter() const { return frames_; }
    // Widget coordinates of the middle of an event's box (tests, automation).
    QPointF eventCenter(int32_t event) const;
    int32_t eventAt(QPointF pos) const;

public slots:
    void selectEvent(int32_t event, bool reveal);
    void zoomToEvent(int32_t event);
    // Shows [start_ns, end_ns) with a margin (the selection stays).
    void zoomToRange(int64_t start_ns, int64_t end_ns);
    void fitAll();
    void setScrollY(int y);
    // Name matches to highlight; empty = no search.
    void setNameMatches(std::vector<uint8_t> matches);
    // Shows `area` as selected and reports it (areaSelected).
    void selectArea(const ts::TraceArea& area);
    // The area of an event: its time range, on every lane (M).
    void selectAreaOfEvent(int32_t event);
    void clearArea();

signals:
    void eventSelected(int32_t event);
    // A click on an idle gap of a stream, not on an event (index in the
    // diagnoses' idle gaps).
    void idleGapSelected(int gap);
    void viewChanged();
    // An area was selected (a Shift+drag ended, M, selectArea).
    void areaSelected(const ts::TraceArea& area);
    void areaCleared();
    void scrollRangeChanged(int maximum, int page);
    // The first frame painted of the trace set last (once per setTrace).
    void traceDrawn();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    double trackX(double widget_x) const { return widget_x - scene_.gutter_px; }
    double contentY(double widget_y) const { return widget_y - scene_.ruler_px + scene_.scroll_y; }
    double keyboardAnchorX() const;
    void updateMetrics();
    void changed();
    // The area between the press and `pos` (Shift+drag).
    TraceArea dragArea(QPointF pos) const;
    // Shows [start_ns, end_ns) with a margin, again when first shown at its size.
    void frame(double start_ns, double end_ns);

    TimelineLayout layout_;
    std::shared_ptr<const TimelineTracks> tracks_;
    std::shared_ptr<const GpuDiagnoses> diagnoses_;
    std::shared_ptr<const CriticalPathReport> path_; // the diagnoses' or the view's
    std::vector<uint8_t> on_path_;                   // per event, made when the path is first shown
    // Tracks of traces shown before (several documents stay open): switching
    // back reuses them instead of redoing the launch analysis on this thread.
    struct CachedTracks {
        std::weak_ptr<const Trace> trace;
        std::shared_ptr<const TimelineTracks> tracks;
    };
    std::vector<CachedTracks> cache_;
    std::shared_ptr<const TimelineTracks> tracksFor(const std::shared_ptr<const Trace>& trace);
    TimelinePainter painter_;
    TimelineScene scene_;
    std::vector<uint8_t> name_matches_;
    FrameMeter frames_;
    QPointF press_pos_;
    QPointF last_drag_pos_;
    bool dragging_ = false;
    bool area_drag_ = false; // the press had Shift: the drag selects an area
    std::optional<TraceArea> area_;
    std::optional<std::pair<double, double>> framed_; // framed while hidden
    std::vector<uint8_t> focus_;
    bool drawn_ = false; // traceDrawn() was emitted for this trace
};

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::TraceArea)
