#pragma once
// The Overview's per-step stacked bars: one bar per step, one coloured
// segment per category (us); hovering a segment names its category, value
// and share of the step.
#include "charts/ThemedPlot.h"
#include "gpu/OverviewContent.h"

namespace ts::gui {

class StepBreakdownChart : public ThemedPlot {
    Q_OBJECT
public:
    explicit StepBreakdownChart(QWidget* parent = nullptr);

    void setContent(const OverviewContent& content);
    int stepCount() const { return int(steps_.size()); }
    // "Kernel: 60 us (50.0 % of step 0)" for the segment at `us` of step
    // `step`; empty outside every segment.
    QString describeAt(int step, double us) const;

signals:
    // A step's bar was clicked (its index in the content's steps).
    void stepClicked(int index);

private:
    void showHover(QMouseEvent* event);
    // The step whose bar is under `pos`, -1 none.
    int stepAt(QPointF pos) const;

    QStringList categories_;
    std::vector<OverviewStep> steps_;
    QList<QCPBars*> bars_;
};

} // namespace ts::gui
