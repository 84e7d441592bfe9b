#pragma once
// The Live tab: six charts of the run being trained (or a run loaded from
// disk) plus what is running, and a seventh with each rank of a data-parallel job. append() takes
// one tick's LiveUpdate and replots every chart exactly once.
#include <vector>

#include <QWidget>

#include "common/FrameMeter.h"
#include "live/RunHistory.h"
#include "training/LiveUpdate.h"

class QGridLayout;
class QToolButton;

namespace ts {
struct RunRecord;
}

namespace ts::gui {

class HistoryChart;
class MemoryCategoryChart;
class RanksChart;
class RunInfoPanel;

class LiveView : public QWidget {
    Q_OBJECT
public:
    explicit LiveView(QWidget* parent = nullptr);

    const RunHistory& history() const { return history_; }
    // Time spent in append() per tick (store + replot), for the 50 ms goal.
    const FrameMeter& frameMeter() const { return frames_; }
    int replotCount() const { return replots_; }
    bool following() const;
    const std::vector<HistoryChart*>& charts() const { return charts_; }
    // Each rank's step time, visible while the run is a data-parallel job.
    RanksChart* ranksChart() const { return ranks_; }
    MemoryCategoryChart* memoryCategoryChart() const { return memory_categories_; }

public slots:
    void beginRun(const ts::gui::RunLaunch& launch);
    void append(const ts::gui::LiveUpdate& update);
    void finishRun(const ts::gui::RunOutcome& outcome);
    // Shows a finished run from its directory (same path as live data).
    void showRun(const ts::RunRecord& record);
    void setFollowing(bool following);
    void clear();

private:
    void linkKeyAxes();
    void showRanks(bool shown);
    void replotAll();

    RunHistory history_;
    std::vector<HistoryChart*> charts_;      // all of them
    std::vector<HistoryChart*> step_charts_; // those keyed by step (linked x axes)
    RunInfoPanel* info_;
    MemoryCategoryChart* memory_categories_;
    RanksChart* ranks_;
    QGridLayout* grid_ = nullptr;
    QToolButton* follow_;
    FrameMeter frames_;
    int replots_ = 0;
    bool syncing_ = false;
};

} // namespace ts::gui
