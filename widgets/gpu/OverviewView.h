#pragma once
// The Overview tab, the first shown when a trace or a run opens: time per
// step by category (stacked bars), the average step (table), the GPUs and
// the recommendations, for a Kineto trace (the TensorBoard plugin's
// Overview) or a Trainscope run (its training phases) alike.
#include <QWidget>

#include "analysis/DiagnosisSummary.h"
#include "gpu/OverviewContent.h"
#include "sources/Document.h"

class QLabel;
class QTableView;

namespace ts::gui {

class AverageShareChart;
class AverageStepModel;
class DocumentSelection;
class SortFilterProxy;
class StepBreakdownChart;

class OverviewView : public QWidget {
    Q_OBJECT
public:
    explicit OverviewView(QWidget* parent = nullptr);

    void setContent(const OverviewContent& content);
    void clear();
    // The document's Overview: its trace's GPU steps when it has them, else
    // a run's phases, else the trace's CPU categories; with HTA's findings
    // once its diagnoses are made.
    void showDocument(const sources::Document& doc);
    // A step's bar clicked picks that step for every view.
    void followSelection(DocumentSelection* selection);
    // The Diagnosis box: HTA's findings, each linking to its view; or
    // `message` (why there are none yet); hidden when both are empty.
    void setDiagnosis(const std::vector<DiagnosisFinding>& findings, const QString& message = {});

    const OverviewContent& content() const { return content_; }
    AverageStepModel* averageModel() const { return average_; }
    StepBreakdownChart* chart() const { return chart_; }
    AverageShareChart* shareChart() const { return share_; }
    QString gpuText() const;
    QString recommendationsText() const;
    QString messageText() const;
    QString diagnosisText() const;

signals:
    // A finding's link: show the view of this catalog name ("idle", ...).
    void viewRequested(const QString& name);

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
    QLabel* diagnosis_;
    QWidget* diagnosis_box_;
};

// The GPU summary panel and the recommendations list, as rich text.
QString gpuSummaryHtml(const std::vector<GpuDeviceSummary>& gpus);
QString recommendationsHtml(const std::vector<TraceRecommendation>& recommendations);
// The findings as a list, each title linking to "view:NAME".
QString diagnosisHtml(const std::vector<DiagnosisFinding>& findings);

} // namespace ts::gui
