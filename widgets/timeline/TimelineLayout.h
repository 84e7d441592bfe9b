#pragma once
// Where every trace event sits on the timeline (one block of rows per lane,
// one row per nesting depth) and which boxes to draw for a viewport. Events
// that fall under one pixel are merged into one box (and neighbouring merged
// pixels into one run), and each row is searched
// by binary search, so the cost of a frame depends on the pixels on screen,
// not on the 1,000,000 events in the trace.
#include <cstdint>
#include <memory>
#include <vector>

#include "timeline/TimelineViewport.h"
#include "trace/Trace.h"

namespace ts::gui {

class TimelineLayout {
public:
    struct Row {
        int lane = 0;
        int depth = 0;
        int y = 0;                // top, in content pixels
        std::vector<int32_t> ids; // events of this row by start time
        // Running maximum of their end times: what a frame's first visible
        // event is found by. Starts and ends are read from the store's
        // 32-byte core records (issue #14: the layout costs 12 B per event,
        // not 28, so that 100 M events fit with the store in 64 B each).
        std::vector<int64_t> max_end;
        // Start of every kSampleStride-th event: the box search gallops over
        // this contiguous array and reads the scattered 32-byte records only
        // to bisect the last block (a zoomed-out frame runs one search per
        // pixel column and row; 11.1 ms instead of 12.8 for 10 M events).
        std::vector<int64_t> sampled_start;
        // Level of detail for zoomed-out frames: the start of every
        // kBlock-th event and the latest end up to the last event of its
        // block (0.25 B per event). A frame with many events per pixel walks
        // these, a few MB, instead of the records (100 M events: 3.2 GB).
        std::vector<int64_t> block_start, block_end;
    };
    static constexpr size_t kSampleStride = 8; // 1 B per event
    static constexpr size_t kBlock = 64;
    // Average events per pixel of a row in view from which its narrow
    // events are grouped at block boundaries.
    static constexpr double kCoarseEventsPerPx = 64;
    struct Lane {
        int y = 0; // top of the lane's block (its label sits here)
        int height = 0;
        int first_row = 0;
        int row_count = 0;
    };
    // One rectangle to draw: a single event at least a pixel wide, or a run of
    // narrow events (`narrow`) covering consecutive pixel columns.
    struct Box {
        float x0 = 0, x1 = 0;
        int32_t row = 0;
        int32_t event = 0;  // the first event of the box
        int32_t merged = 1; // events drawn by this box
        bool narrow = false;
    };

    static constexpr int kLaneGap = 8; // pixels between lane blocks

    void setTrace(std::shared_ptr<const Trace> trace);
    const std::shared_ptr<const Trace>& trace() const { return trace_; }
    void setRowHeight(int px);
    int rowHeight() const { return row_height_; }
    // Rows of counters (GPU utilization, memory) above the lanes; none after
    // setTrace. Counter i spans [counterY(i), counterY(i) + counterHeight()).
    void setCounterRows(int count);
    int counterRows() const { return counter_rows_; }
    int counterHeight() const { return row_height_ * 5 / 2; }
    int counterY(int index) const { return index * (counterHeight() + kLaneGap); }
    // Counter row under content y, or -1.
    int counterAt(double y) const;

    const std::vector<Row>& rows() const { return rows_; }
    // Bytes the rows hold (by capacity), for bench_timeline's figures.
    size_t memoryBytes() const;
    const std::vector<Lane>& lanes() const { return lanes_; }
    int contentHeight() const { return content_height_; }
    int64_t startNs() const { return start_ns_; }
    int64_t endNs() const { return end_ns_; }

    // The trace lanes whose blocks meet content ys [y0, y1] (an area drawn
    // across rows), top to bottom.
    std::vector<int32_t> lanesBetween(double y0, double y1) const;
    // Row under content y, or -1 (gaps between lanes, below the last lane).
    int rowAt(double y) const;
    int rowOf(int32_t event) const;
    // Boxes of the rows overlapping content ys [y0, y1) inside the viewport;
    // `out` is cleared first (reuse it between frames to avoid allocations).
    void collectBoxes(const TimelineViewport& view, double y0, double y1,
                      std::vector<Box>& out) const;
    // The event under (x, y): the innermost one containing the time, else the
    // nearest within `tolerance_px`; -1 when none.
    int32_t hitTest(const TimelineViewport& view, double x, double y, double tolerance_px) const;
    // Direct children (events on the next row inside the event, parent == event).
    std::vector<int32_t> childrenOf(int32_t event) const;
    // First index in `row` whose running max end reaches t (events before it end earlier).
    size_t firstEndingAfter(const Row& row, double t_ns) const;
    // Off: every frame groups narrow events by exact pixel column (tests
    // compare both ways).
    void setLevelOfDetail(bool on) { level_of_detail_ = on; }

private:
    int64_t startOf(const Row& row, size_t i) const {
        return trace_->events.core(size_t(row.ids[i])).start_ns;
    }
    int64_t endOf(const Row& row, size_t i) const {
        return trace_->events.core(size_t(row.ids[i])).end_ns();
    }
    void collectRow(const TimelineViewport& view, int row_index, std::vector<Box>& out) const;
    void collectRowCoarse(const TimelineViewport& view, int row_index, size_t first, size_t end,
                          std::vector<Box>& out) const;
    void computeYs();

    std::shared_ptr<const Trace> trace_;
    std::vector<Row> rows_;
    std::vector<Lane> lanes_;
    int row_height_ = 18;
    int counter_rows_ = 0;
    int content_height_ = 0;
    int64_t start_ns_ = 0;
    int64_t end_ns_ = 1;
    bool level_of_detail_ = true;
};

} // namespace ts::gui
