#pragma once
// The log-log roofline: the bandwidth roof, the fp32 compute roof (and the
// reduced-precision one when known), the ridge point, and each operator as a
// dot at (FLOP/byte, achieved GFLOP/s), sized by its share of the time and
// coloured by its bound. Hover shows a point's figures, a click selects it.
#include <vector>

#include <qcustomplot.h>

#include "analysis/Roofline.h"

namespace ts::gui {

class RooflineChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);

    void setRoofline(const Roofline& roofline);
    // No roofline: the message says why (no peaks, no operators, ...).
    void clear(const QString& message);

    int pointCount() const { return int(points_.size()); }
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
    void changeEvent(QEvent* event) override;

private:
    QCPGraph* makeGraph(const QString& name, const QPen& pen, bool inLegend);
    double pointRadius(int index) const;
    void resetPlot();
    void applyPalette();

    Roofline roofline_;
    QCPTextElement* title_;
    QCPGraph* roof_ = nullptr;
    QCPGraph* low_roof_ = nullptr;
    QCPGraph* highlight_ = nullptr;
    QCPItemText* message_ = nullptr;
    std::vector<QCPGraph*> points_;
    std::vector<QCPItemText*> labels_;
    int selected_ = -1;
};

} // namespace ts::gui
