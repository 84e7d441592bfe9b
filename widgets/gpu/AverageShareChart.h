#pragma once
// The average step as one horizontal 100 % bar (QCustomPlot has no pie):
// a segment per category, its share in the legend and on hover.
#include "charts/ThemedPlot.h"
#include "gpu/OverviewContent.h"

namespace ts::gui {

class AverageShareChart : public ThemedPlot {
    Q_OBJECT
public:
    explicit AverageShareChart(QWidget* parent = nullptr);

    void setContent(const OverviewContent& content);
    int segmentCount() const { return int(bars_.size()); }
    // "Kernel: 60.0 us (50.0 %)" for the segment at `percent` (0..100); empty outside.
    QString describeAt(double percent) const;

private:
    void showHover(QMouseEvent* event);

    QStringList categories_;
    std::vector<double> us_;
    QList<QCPBars*> bars_;
};

} // namespace ts::gui
