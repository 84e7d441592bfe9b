#pragma once
// Images/s and memory against the swept value, side by side in one plot (one
// PNG): the first key's values as evenly spaced categories in run order, one
// line per value of the second key in a grid. Points the memory guard skipped
// show their predicted memory as hollow markers.
#include <vector>

#include <qcustomplot.h>

#include "experiments/Sweep.h"

namespace ts::gui {

class SweepCharts : public QCustomPlot {
    Q_OBJECT
public:
    explicit SweepCharts(QWidget* parent = nullptr);
    void setResult(const SweepResult& result);
    void clear();

    // For tests: the lines of each panel (one per value of the second key).
    const std::vector<QCPGraph*>& throughputLines() const { return throughput_lines_; }
    const std::vector<QCPGraph*>& memoryLines() const { return memory_lines_; }
    QCPGraph* predictedMarkers() const { return predicted_; }
    QStringList categories() const { return categories_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Panel {
        QCPAxisRect* rect = nullptr;
        QCPTextElement* title = nullptr;
    };
    Panel makePanel(int column, const QString& title);
    QCPGraph* addLine(const Panel& panel, const QString& name, const QColor& color);
    void applyPalette();

    Panel throughput_;
    Panel memory_;
    QCPLegend* legend_ = nullptr;
    QSharedPointer<QCPAxisTickerText> ticker_;
    std::vector<QCPGraph*> throughput_lines_;
    std::vector<QCPGraph*> memory_lines_;
    QCPGraph* predicted_ = nullptr;
    QStringList categories_;
};

} // namespace ts::gui
