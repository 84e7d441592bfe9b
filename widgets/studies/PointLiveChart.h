#pragma once
// The running sweep point's or ladder rung's own steps, live, as the Live
// view shows a run: images/s and the step time by phase, fed one drained
// LiveUpdate per tick and replotted once per tick. A new point starts afresh.
#include <QWidget>

#include "live/RunHistory.h"
#include "training/LiveUpdate.h"

namespace ts::gui {

class HistoryChart;

class PointLiveChart : public QWidget {
    Q_OBJECT
public:
    explicit PointLiveChart(QWidget* parent = nullptr);

    const RunHistory& history() const { return history_; }
    int replotCount() const { return replots_; }

    // Forgets the shown point (an experiment starts, or one is opened).
    void reset();
    // One tick of the running point; `started` begins a new point.
    void append(const LiveUpdate& update);

private:
    RunHistory history_;
    HistoryChart* throughput_;
    HistoryChart* step_time_;
    int replots_ = 0;
};

} // namespace ts::gui
