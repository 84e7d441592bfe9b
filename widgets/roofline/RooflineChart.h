#pragma once
// The log-log roofline, drawn from the report's own chart (rooflineChart):
// the bandwidth roof, the fp32 compute roof (and the reduced-precision one
// when known), the ridge point, and each operator as a dot at (FLOP/byte,
// achieved GFLOP/s), sized by its share of the time and coloured by its
// bound. On top of it: hover shows a point's figures, a click selects it.
#include "analysis/Roofline.h"
#include "charts/ThemedPlot.h"

namespace ts::gui {

class RooflineChart : public ThemedPlot {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);

    void setRoofline(const Roofline& roofline);
    // No roofline: the message says why (no peaks, no operators, ...).
    void clear(const QString& message);

    int pointCount() const { return int(roofline_.points.size()); }
    // The point drawn under (or within a few pixels of) `pixel`, nearest first; -1 if none.
    int pointAt(const QPointF& pixel) const;
    QPointF pointPixel(int index) const;
    // Hover text of a point (HTML): name, intensity, achieved rate, share of the roof, bound.
    QString pointText(int index) const;
    int selectedPoint() const { return selected_; }
    double ridgeIntensity() const { return roofline_.peaks.ridge(); }
    QCPGraph* roofGraph() const { return roof_; }
    QCPGraph* lowRoofGraph() const { return low_roof_; }
    QString message() const;

public slots:
    void setSelectedPoint(int index);

signals:
    void pointClicked(int index);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    double pointRadius(int index) const;
    void addHighlight();

    Roofline roofline_;
    QCPGraph* roof_ = nullptr;
    QCPGraph* low_roof_ = nullptr;
    QCPGraph* highlight_ = nullptr;
    QCPItemText* message_ = nullptr;
    int selected_ = -1;
};

} // namespace ts::gui
