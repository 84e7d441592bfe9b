#pragma once
// The Overview tab, the first shown when a trace or a run opens: time per
// step by category (stacked bars), the average step (table), the GPUs and
// the recommendations, for a Kineto trace (the TensorBoard plugin's
// Overview) or a Trainscope run (its training phases) alike.
#include <QWidget>

#include "gpu/OverviewContent.h"

class QLabel;
class QTableView;

namespace ts::gui {

class AverageShareChart;
class AverageStepModel;
class SortFilterProxy;
class StepBreakdownChart;

class OverviewView : public QWidget {
    Q_OBJECT
public:
    explicit OverviewView(QWidget* parent = nullptr);

    void setContent(const OverviewContent& content);
    void clear();

    const OverviewContent& content() const { return content_; }
    AverageStepModel* averageModel() const { return average_; }
    StepBreakdownChart* chart() const { return chart_; }
    AverageShareChart* shareChart() const { return share_; }
    QString gpuText() const;
    QString recommendationsText() const;
    QString messageText() const;

private:
    OverviewContent content_;
    QLabel* source_;
    QLabel* message_;
    QWidget* body_;
    StepBreakdownChart* chart_;
    AverageShareChart* share_;
    AverageStepModel* average_;
    SortFilterProxy* proxy_;
    QTableView* table_;
    QLabel* gpus_;
    QLabel* recommendations_;
};

// The GPU summary panel and the recommendations list, as rich text.
QString gpuSummaryHtml(const std::vector<GpuDeviceSummary>& gpus);
QString recommendationsHtml(const std::vector<TraceRecommendation>& recommendations);

} // namespace ts::gui
