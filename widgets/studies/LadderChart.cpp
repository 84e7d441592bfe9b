#include "studies/LadderChart.h"

#include "experiments/LadderReport.h"

namespace ts::gui {

LadderChart::LadderChart(QWidget* parent) : ThemedPlot(parent) {
    setMinimumSize(360, 240);
    clear();
}

void LadderChart::clear() {
    setResult(LadderResult());
}

void LadderChart::setResult(const LadderResult& r) {
    rungs_ = int(r.rows.size());
    const DrawnSpec drawn = drawSpec(ladderThroughputChart(r), mainSpecPanel(*this));
    kept_ = qobject_cast<QCPBars*>(drawn.series.at(0));
    dropped_ = qobject_cast<QCPBars*>(drawn.series.at(1));
    refresh();
}

} // namespace ts::gui
