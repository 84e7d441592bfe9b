#pragma once
// The Diff tab's timeline: one step of A above one step of B on the same
// time scale (each from its own start), the top-level operators as boxes,
// each matched pair joined by a line and coloured by its change: warm when B
// spends more there (slower, or only in B), cool when less, neutral when the
// change is below the threshold. No profiler UI draws this; the TensorBoard
// plugin's diff had tables only.
#include <map>
#include <string>

#include <QWidget>

#include "analysis/TraceDiff.h"

namespace ts::gui {

class AlignedStepsWidget : public QWidget {
    Q_OBJECT
public:
    explicit AlignedStepsWidget(QWidget* parent = nullptr);

    // `impacts`: per operator name its impact on the step (DiffRow::impact_ns),
    // which colours a changed operator; other nodes take their pair's change.
    void setAlignment(StepAlignment alignment, const QString& label_a, const QString& label_b,
                      std::map<std::string, double> impacts = {});
    const StepAlignment& alignment() const { return alignment_; }
    // The box under `pos`: side 0 (A) or 1 (B) and its index in that step's
    // ops; {-1, -1} for none.
    std::pair<int, int> opAt(QPointF pos) const;
    QString describeOp(int side, int op) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRectF opRect(int side, const AlignedOp& op) const;
    double rowTop(int side) const;
    double scaleX(int64_t ns) const;
    QColor opColour(const AlignedOp& op) const;

    StepAlignment alignment_;
    std::map<std::string, double> impacts_;
    QString labels_[2];
};

} // namespace ts::gui
