#pragma once
// GPU ▸ Critical Path: the critical path of a step (analysis/CriticalPath.h)
// as tables, with the window to analyse (each ProfilerStep, or the whole
// trace) and a what-if editor ("kernel:NAME=0.5; category:launch=0"): the
// path recomputed with those factors is the What If table's first row.
// Choosing another window recomputes the path, which the timeline draws.
#include <memory>

#include "analysis/CriticalPath.h"
#include "analysis/GpuDiagnoses.h"
#include "analysis/LaunchIndex.h"
#include "common/SpecTablesView.h"

class QComboBox;

namespace ts::gui {

class DocumentSelection;

class CriticalPathView : public SpecTablesView {
    Q_OBJECT
public:
    explicit CriticalPathView(AppSettings* settings = nullptr, QWidget* parent = nullptr);

    void setDiagnoses(std::shared_ptr<const Trace> trace,
                      std::shared_ptr<const GpuDiagnoses> diagnoses, const QString& description);
    const CriticalPathReport* report() const { return report_.get(); }
    // The window list's entries ("ProfilerStep#12", ..., "whole trace").
    QStringList windows() const;
    // Analyses that window; false when it is not in the list.
    bool chooseWindow(int index);
    // Applies "KIND:NAME=F; ..." (empty: none); the error in plain words, or "".
    QString applyWhatIf(const QString& text);
    // The step picked for the document is the window analysed, a window
    // chosen here is the step picked, and the path shown is drawn on the
    // Timeline.
    void followSelection(DocumentSelection* selection);

signals:
    // The path shown changed (another window): the timeline draws it.
    void pathChanged(std::shared_ptr<const CriticalPathReport> report,
                     std::shared_ptr<const Trace> of);

private:
    void showReport();
    // The window of ProfilerStep#`step`, -1 none.
    int windowOfStep(int64_t step) const;

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const GpuDiagnoses> diagnoses_;
    std::shared_ptr<const CriticalPathReport> report_;
    std::unique_ptr<WhatIfResult> asked_;
    std::unique_ptr<LaunchIndex> launches_; // made when another window is first chosen
    std::vector<CpWindow> windows_;         // per entry of the list
    QString description_;
    DocumentSelection* selection_ = nullptr;
    QComboBox* window_;
    QLineEdit* what_if_;
    QLabel* error_;
};

} // namespace ts::gui
