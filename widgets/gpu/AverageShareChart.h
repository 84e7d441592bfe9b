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
    // Legend entries per row: as many as fit the chart's width, at most 4.
    int legendColumns() const { return legend->wrap(); }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showHover(QMouseEvent* event);
    // QCustomPlot clips a legend entry wider than its column ("Kernel 17.1"
    // without its "%" on a 530-pixel Overview): fewer columns instead.
    void fitLegendColumns(int width);

    QStringList categories_;
    std::vector<double> us_;
    QList<QCPBars*> bars_;
};

} // namespace ts::gui
