#include "studies/PruneChart.h"

namespace ts::gui {

PruneChart::PruneChart(QWidget* parent) : ThemedPlot(parent) {
    setMinimumSize(360, 240);
    clear();
}

void PruneChart::clear() {
    setResult(PruneStudyResult());
}

void PruneChart::setResult(const PruneStudyResult& r) {
    layers_ = int(r.layers.size());
    const DrawnSpec drawn = drawSpec(pruneSparsityChart(r), mainSpecPanel(*this));
    // The spec leaves the "before" series out when nothing was zero before.
    const bool with_before = drawn.series.size() > 1;
    before_ = with_before ? qobject_cast<QCPBars*>(drawn.series.front()) : nullptr;
    after_ = qobject_cast<QCPBars*>(drawn.series.back());
    overall_ = drawn.lines.empty() ? nullptr : drawn.lines.front();
    refresh();
}

} // namespace ts::gui
