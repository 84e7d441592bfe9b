#pragma once
// Images/s per rung of the optimization ladder: kept rungs in colour, dropped
// ones grey, skipped ones empty, each bar labelled with its speed-up over the
// baseline (a dashed line).
#include <qcustomplot.h>

#include "experiments/Ladder.h"

namespace ts::gui {

class LadderChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit LadderChart(QWidget* parent = nullptr);
    void setResult(const LadderResult& result);
    void clear();

    // For tests: the bars of kept and of dropped rungs (NaN where the other applies).
    QCPBars* keptBars() const { return kept_; }
    QCPBars* droppedBars() const { return dropped_; }
    int rungCount() const { return rungs_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();
    QCPTextElement* title_;
    QCPBars* kept_;
    QCPBars* dropped_;
    QCPItemStraightLine* baseline_;
    QSharedPointer<QCPAxisTickerText> ticker_;
    QList<QCPItemText*> labels_;
    int rungs_ = 0;
};

} // namespace ts::gui
