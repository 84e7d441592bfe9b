#pragma once
// The GUI's views, one entry each: which catalog view it is (name, title,
// group: report/ViewCatalog.h), how its widget is made, and, for the views
// of a trace's analysis, how it is filled, told to wait and cleared, and
// what of the analysis it waits for. The main window, its tabs, DeferredViews
// and `--view` all go through this list (GammaRay's tool factories, without
// plugins); ViewPages.cpp holds the entries. docs/architecture.md "How to add
// a view" walks through adding one.
#include <functional>
#include <memory>
#include <vector>

#include <QString>

#include "report/ViewCatalog.h"
#include "shell/OpenedDocument.h"
#include "shell/Views.h"

class QWidget;

namespace ts::gui {

class AppSettings;
class ExperimentForm;
class RunController;

// What the window makes its views with.
struct ViewContext {
    AppSettings& settings;
    ExperimentForm& form;
    RunController& controller;
};

// A trace as a view of its analysis is given it: the analysis as far as it is
// made (for a large trace, DeferredViews completes what `needs` names first).
struct ShownTrace {
    std::shared_ptr<const Trace> trace;
    QString description;
    const DeferredAnalysis& analysis;
};

// What of a trace's analysis a view needs beyond the trace itself.
enum class Needs {
    Trace,     // the trace alone (its operator table)
    Analysis,  // the full GPU analysis (DeferredAnalysis::full)
    Memory,    // and the memory view
    Modules,   // and the module view
    Diagnoses, // and HTA's diagnoses (GpuDiagnoses)
};

struct ViewPage {
    View id;
    const views::ViewInfo* info; // name, title and group
    std::function<QWidget*(const ViewContext&)> create;
    // A view of a trace's analysis: filled when the trace is shown, or for a
    // large trace when the view is first shown (null for the other views).
    std::function<void(QWidget*, const ShownTrace&)> show;
    Needs needs = Needs::Trace;
    std::function<void(QWidget*, const QString& message)> pending; // with show
    // No trace to show; `message` says why (null: nothing to clear).
    std::function<void(QWidget*, const QString& message)> clear;
    // Offered for `document` (null: none open); null: always.
    std::function<bool(const OpenedDocument* document)> applies;

    bool showsAnalysis() const { return bool(show); }
    bool appliesTo(const OpenedDocument* document) const { return !applies || applies(document); }
};

// In the order of the catalog (and so of the tabs within each group).
const std::vector<ViewPage>& viewPages();
// The entry of `view`; every View has one.
const ViewPage& viewPage(View view);

} // namespace ts::gui
