#pragma once
// The rank x step heat map of the Distributed tab: one row per rank, one
// column per step, each cell coloured by a metric (step time, computation,
// waiting in collectives, ...), so that 1,024 ranks and 1,000 steps read at
// a glance: a slow rank is a bright row, a slow step a bright column, one
// hiccup a bright cell. The cells are one pixel each in an image drawn
// scaled, so scrolling and zooming (wheel, drag) cost one scaled blit per
// frame whatever the size. Hovering names the cell; a click picks its rank
// and step, a double click opens that rank's trace at that step.
#include <cstdint>
#include <vector>

#include <QImage>
#include <QStringList>
#include <QWidget>

#include "common/FrameMeter.h"

namespace ts::gui {

struct HeatMapData {
    std::vector<int64_t> ranks; // row labels, top to bottom
    QStringList steps;          // column labels, left to right
    std::vector<double> ns;     // ranks x steps, row by row; < 0: the rank has no such step
    QString metric;             // "Step time"
};

class RankHeatMap : public QWidget {
    Q_OBJECT
public:
    explicit RankHeatMap(QWidget* parent = nullptr);

    void setData(HeatMapData data);
    const HeatMapData& data() const { return data_; }
    // The cells shown: columns [x, x + w), rows [y, y + h).
    QRectF window() const { return window_; }
    // Zooms by `factor` (> 1: closer) around the widget point `at`; pans by
    // whole cells. Both keep the window inside the map.
    void zoom(double factor, QPointF at);
    void pan(double columns, double rows);
    // The cell under a widget point: (row, column), (-1, -1) outside.
    QPoint cellAt(QPointF point) const;
    // "rank 517 · step 12 · Step time 3.41 ms"; "" outside the cells.
    QString describeAt(QPointF point) const;
    // The colour range: the lowest value and the 99th percentile (a single
    // outlier would make every other cell the same colour).
    double lowNs() const { return low_; }
    double highNs() const { return high_; }
    const FrameMeter& frameMeter() const { return frames_; }
    QRect cellArea() const;

signals:
    void cellClicked(int row, int column);
    void cellActivated(int row, int column);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    void renderImage();
    void clampWindow();
    void drawAxes(QPainter& painter, const QRect& area) const;
    void drawLegend(QPainter& painter, const QRect& area) const;

    HeatMapData data_;
    QImage image_; // one pixel per cell
    QRectF window_;
    double low_ = 0, high_ = 0;
    QPointF drag_from_;
    bool dragging_ = false, dragged_ = false;
    FrameMeter frames_;
};

// The colour of `share` in [0, 1] (dark blue to yellow, perceptually even
// enough to read as more or less), and of a missing cell.
QRgb heatColour(double share);

} // namespace ts::gui
