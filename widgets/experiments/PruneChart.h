#pragma once
// Sparsity per pruned layer, before (grey, when any weights were zero before)
// and after pruning (in colour) side by side, with the overall sparsity after
// pruning as a dashed line (named with its value in the legend).
#include <qcustomplot.h>

#include "experiments/PruneStudy.h"

namespace ts::gui {

class PruneChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit PruneChart(QWidget* parent = nullptr);
    void setResult(const PruneStudyResult& result);
    void clear();

    // For tests: sparsity in percent per layer, in the study's layer order.
    QCPBars* beforeBars() const { return before_; }
    QCPBars* afterBars() const { return after_; }
    int layerCount() const { return layers_; }
    QCPGraph* overallLine() const { return overall_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();
    QCPTextElement* title_;
    QCPBarsGroup* group_;
    QCPBars* before_;
    QCPBars* after_;
    QCPGraph* overall_;
    QSharedPointer<QCPAxisTickerText> ticker_;
    int layers_ = 0;
};

} // namespace ts::gui
