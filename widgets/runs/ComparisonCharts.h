#pragma once
// Bar charts comparing runs side by side: throughput, epoch time, peak memory
// and accuracy, in one plot so that it exports as one PNG.
#include <vector>

#include <qcustomplot.h>

#include "runs/RunRow.h"

namespace ts::gui {

class ComparisonCharts : public QCustomPlot {
    Q_OBJECT
public:
    explicit ComparisonCharts(QWidget* parent = nullptr);
    void setRuns(const std::vector<RunRow>& runs);
    int runCount() const { return run_count_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Panel {
        QCPAxisRect* rect = nullptr;
        QCPTextElement* title = nullptr;
        QCPLegend* legend = nullptr;   // only for panels with several series
        QCPBarsGroup* group = nullptr; // side by side bars of those series
        std::vector<QCPBars*> bars;
    };
    Panel makePanel(int row, int column, const QString& title, const QStringList& series);
    void fillPanel(Panel& panel, const std::vector<std::vector<double>>& values);
    void applyPalette();

    std::vector<Panel> panels_;
    QSharedPointer<QCPAxisTickerText> run_ticker_;
    int run_count_ = 0;
};

} // namespace ts::gui
