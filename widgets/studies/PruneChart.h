#pragma once
// Sparsity per pruned layer, drawn from the report's own chart
// (pruneSparsityChart): before (grey, only when some weights were zero
// before) and after pruning side by side, the overall sparsity after pruning
// as a dashed line named with its value in the legend.
#include "charts/SpecPlot.h"
#include "charts/ThemedPlot.h"
#include "experiments/PruneStudy.h"

namespace ts::gui {

class PruneChart : public ThemedPlot {
    Q_OBJECT
public:
    explicit PruneChart(QWidget* parent = nullptr);
    void setResult(const PruneStudyResult& result);
    void clear();

    // For tests: sparsity in percent per layer, in the study's layer order;
    // no "before" bars (nullptr) when the weights were dense before.
    QCPBars* beforeBars() const { return before_; }
    QCPBars* afterBars() const { return after_; }
    int layerCount() const { return layers_; }
    QCPGraph* overallLine() const { return overall_; } // nullptr without weights

private:
    QCPBars* before_ = nullptr;
    QCPBars* after_ = nullptr;
    QCPGraph* overall_ = nullptr;
    int layers_ = 0;
};

} // namespace ts::gui
