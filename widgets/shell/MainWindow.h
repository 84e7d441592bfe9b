#pragma once
// The main window only assembles the panels and connects their typed
// signals: experiment form + run panel (dock), the views of the registry
// (shell/ViewRegistry.h) in grouped tabs (shell/ViewTabs.h), status bar,
// menus. The panels do the work. Any number of traces and runs can be open;
// the Document selector in the tab bar's corner picks the one all views show.
#include <memory>

#include <QMainWindow>

#include "analysis/GpuTraceAnalysis.h"
#include "jobs/OneShot.h"
#include "shell/Machine.h"
#include "shell/OpenedDocument.h"
#include "shell/Views.h"
#include "trace/Trace.h"

class QDockWidget;
class QMenu;
class QTabWidget;

namespace ts::gui {

class AppSettings;
class DeferredViews;
class DocumentLoader;
class DocumentSelector;
class ExperimentForm;
class ExperimentsView;
class KernelsView;
class SpecTablesView;
class MemoryUsageView;
class ModulesView;
class RanksView;
class TraceDiffView;
class OverviewView;
class LiveView;
class OperatorsView;
class RunController;
class RunPanel;
class RooflineView;
class RunsView;
class StatusBar;
class QueryView;
class TimelineView;
class ViewTabs;
struct AppActions;
struct LiveUpdate;
struct RunOutcome;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(AppSettings& settings, const Machine& machine, QWidget* parent = nullptr);
    ~MainWindow() override;

    ExperimentForm* form() const { return form_; }
    RunPanel* runPanel() const { return run_panel_; }
    OverviewView* overviewView() const;
    KernelsView* kernelsView() const;
    // A view made of core tables alone (Temporal, Idle Time); null for the others.
    SpecTablesView* tablesView(View view) const;
    MemoryUsageView* memoryView() const;
    ModulesView* modulesView() const;
    RanksView* distributedView() const;
    TraceDiffView* diffView() const;
    LiveView* liveView() const;
    OperatorsView* operatorsView() const;
    TimelineView* timelineView() const;
    QueryView* queryView() const;
    RunsView* runsView() const;
    ExperimentsView* experimentsView() const;
    // Shows a sweep, ladder or prune directory in the Experiments tab; false
    // (nothing done) when `path` is not one.
    bool openExperimentDirectory(const QString& path);
    RooflineView* rooflineView() const;
    RunController* controller() const { return controller_; }
    DocumentLoader* loader() const { return loader_; }
    DeferredViews* deferredViews() const { return deferred_; }
    DocumentSelector* documents() const { return documents_; }
    StatusBar* statusBarWidget() const { return status_; }

    // This machine as LibTorch probed it (the window starts with
    // Machine::beforeLibTorch()): the form's devices, the status bar.
    void setMachine(const Machine& machine);
    const Machine& machine() const { return machine_; }
    // Unless the window has LibTorch's machine already: probes it on a thread
    // of its own (loading the TorchBackend) once no trace is being read, both
    // wanting the CPU, then setMachine().
    void probeMachineWhenIdle();
    bool probingMachine() const { return machine_probe_.isRunning(); }

    // Makes `view` current (offering it when the open document does not).
    void showView(View view);
    View currentView() const;
    // Restores geometry, dock layout, tab and the last experiment.
    void restoreSession();

public slots:
    // Opens `path` as another document and shows it; a path already open is
    // shown again rather than read twice.
    void openPath(const QString& path);
    void closeDocument();
    void startRun();

signals:
    void documentShown(const ts::gui::OpenedDocument& document);
    // Start failed, or a path could not be opened (automation reports it).
    void errorReported(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // The Diff tab chooses A and B among the open documents.
    void updateDiffDocuments();
    void buildDock();
    void wireRun();
    void wireDocuments();
    void wireActions();
    void onUpdate(const LiveUpdate& update);
    void onRunFinished(const RunOutcome& outcome);
    void onOpened(const OpenedDocument& document);
    // Shows `document` in every view (the tab stays as it is).
    void showDocument(const OpenedDocument& document);
    void showNoDocument();
    // The views of `trace` already made (off the GUI thread) are taken from
    // `views`; the others are made here.
    void showTrace(std::shared_ptr<const Trace> trace, const QString& description,
                   const OpenedDocument* views = nullptr);
    // A tab DeferredViews fills says why it is empty.
    void showAnalysisPending(View view, const QString& message);
    void fillAnalysedView(View view, const std::shared_ptr<const Trace>& trace,
                          const QString& description, const DeferredAnalysis& all);
    // The Overview of what was opened: the trace's GPU steps when it has
    // them, else the run's phases, else the trace's CPU categories.
    void showOverview(const OpenedDocument& document);
    // The Overview's Diagnosis box: null diagnoses are made later.
    void showDiagnosis(const Trace& trace, const GpuDiagnoses* diagnoses);
    // A large trace's diagnoses, made once a diagnosis view was shown: to the
    // timeline and the Overview (once).
    void diagnosesMade(const std::shared_ptr<const Trace>& trace,
                       const std::shared_ptr<const GpuDiagnoses>& diagnoses);
    // Offers the views that apply to `document` (null: none open).
    void offerViewsFor(const OpenedDocument* document);
    void showFormFor(bool run);
    template <typename T> T* viewAs(View view) const;
    void rebuildRecentMenu();
    void reportError(const QString& message);
    void saveSession();
    void chooseAndOpen(bool directory);
    void saveScreenshotInteractive();
    void showShortcuts();

    AppSettings& settings_;
    Machine machine_;
    // Machine::probe() off the GUI thread; the error when LibTorch cannot load.
    struct MachineProbe {
        Machine machine;
        QString error;
    };
    OneShot<MachineProbe> machine_probe_;
    void onMachineProbed(const MachineProbe& probe);
    std::unique_ptr<AppActions> actions_;
    ExperimentForm* form_;
    RunPanel* run_panel_;
    RunController* controller_;
    DocumentLoader* loader_;
    DeferredViews* deferred_ = nullptr;
    DocumentSelector* documents_;
    StatusBar* status_;
    ViewTabs* tabs_; // every view, made from the registry (shell/ViewRegistry.h)
    std::shared_ptr<const GpuTraceAnalysis> gpu_analysis_; // of the trace shown
    QDockWidget* dock_ = nullptr;
    QMenu* recent_;
};

} // namespace ts::gui
