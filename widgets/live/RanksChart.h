#pragma once
// A data-parallel job's ranks side by side: each rank's step time and the
// part of it spent waiting for the gradient allreduce, keyed by step like
// the other live charts, so a straggler shows as the one line above the rest.
#include <map>

#include "live/LiveCharts.h"

namespace ts::gui {

class RanksChart : public HistoryChart {
    Q_OBJECT
public:
    explicit RanksChart(const RunHistory& history, QWidget* parent = nullptr);
    // Adds the ranks' steps not drawn yet (the job's own steps are not used).
    void append(size_t first_step, size_t first_epoch) override;
    void reset() override;
    int rankCount() const { return int(lines_.size()); }

    // Ranks beyond this many draw their step time only (no wait line).
    static constexpr int kRanksWithWaitLines = 4;
    // Ranks below this get their line before their first step arrives.
    static constexpr int kMaxOrdered = 255;

private:
    struct RankLines {
        QCPGraph* step = nullptr;
        QCPGraph* wait = nullptr;
        size_t drawn = 0;
    };
    RankLines& linesOf(int rank);
    QString hover(double key) const;
    std::map<int, RankLines> lines_;
};

} // namespace ts::gui
