#include "live/RanksChart.h"

#include <algorithm>

#include "common/Format.h"
#include "common/ThemePalette.h"

namespace ts::gui {

RanksChart::RanksChart(const RunHistory& history, QWidget* parent)
    : HistoryChart(tr("Ranks: step time and allreduce wait"), history, parent) {
    yAxis->setLabel(tr("ms"));
    setHoverText([this](double key) { return hover(key); });
}

RanksChart::RankLines& RanksChart::linesOf(int rank) {
    auto [it, added] = lines_.try_emplace(rank);
    if (added) {
        const QColor color = seriesColor(rank);
        it->second.step = addSeries(tr("rank %1 step").arg(rank), color);
        if (rank < kRanksWithWaitLines) {
            QColor faded = color;
            faded.setAlpha(150);
            it->second.wait = addSeries(tr("rank %1 wait").arg(rank), faded);
            it->second.wait->setPen(QPen(faded, 1.0, Qt::DashLine));
        }
    }
    return it->second;
}

void RanksChart::append(size_t, size_t) {
    // Lines in rank order, whichever rank's steps arrive first (up to a
    // sane count: a hand-made folder ranks/999999 must not make a million).
    if (!history_.rank_steps.empty())
        for (int rank = 0; rank <= std::min(history_.rank_steps.rbegin()->first, kMaxOrdered);
             ++rank)
            linesOf(rank);
    for (const auto& [rank, steps] : history_.rank_steps) {
        RankLines& lines = linesOf(rank);
        for (size_t i = lines.drawn; i < steps.size(); ++i) {
            const StepRecord& s = steps[i];
            lines.step->addData(double(s.global_step), s.step_ms);
            if (lines.wait) lines.wait->addData(double(s.global_step), s.comm_wait_ms);
        }
        lines.drawn = steps.size();
    }
}

void RanksChart::reset() {
    clearGraphs(); // lines come back with the next job's ranks
    lines_.clear();
    setFollowing(true);
}

QString RanksChart::hover(double key) const {
    QString text;
    for (const auto& [rank, steps] : history_.rank_steps) {
        const auto it =
            std::lower_bound(steps.begin(), steps.end(), key, [](const StepRecord& s, double k) {
                return double(s.global_step) < k;
            });
        if (it == steps.end() || double(it->global_step) != std::round(key)) continue;
        if (text.isEmpty()) text = tr("step %1").arg(it->global_step);
        text += tr("\nrank %1: %2 (allreduce wait %3)")
                    .arg(rank)
                    .arg(format::duration(it->step_ms), format::duration(it->comm_wait_ms));
    }
    return text;
}

} // namespace ts::gui
