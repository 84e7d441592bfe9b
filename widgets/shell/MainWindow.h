#pragma once
// The main window only assembles the panels: the experiment and script
// forms + run panel (dock), the view pages of the registry (shell/ViewRegistry.h) in grouped
// tabs (shell/ViewTabs.h) shown each document through one path
// (shell/DocumentPages.h), the document selector and the shown document's
// selection (common/DocumentSelection.h) above them, status bar, menus. It
// names no view: pages ask for one by its catalog name through the
// selection, and the window shows it. Any number of documents can be open;
// the Document selector in the tab bar's corner picks the one all views show.
#include <memory>

#include <QMainWindow>

#include "jobs/OneShot.h"
#include "shell/Machine.h"
#include "shell/OpenedDocument.h"
#include "shell/ViewTabs.h"

class QDockWidget;
class QMenu;

namespace ts::gui {

class AppSettings;
class CompareSelector;
class DocumentLoader;
class DocumentPages;
class DocumentSelection;
class DocumentSelector;
class ExperimentForm;
class LiveCaptures;
class LiveJobsDock;
class LiveJobsPanel;
class RunController;
class RunForms;
class RunPanel;
class ScriptForm;
class SelectionBar;
class StatusBar;
class StudyActivity;
struct AppActions;
struct RunOutcome;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(AppSettings& settings, const Machine& machine, QWidget* parent = nullptr);
    ~MainWindow() override;

    ExperimentForm* form() const { return form_; }
    // The Python script kind of run's form, and the dock's choice of kind.
    ScriptForm* scriptForm() const { return script_form_; }
    RunForms* runForms() const { return forms_; }
    RunPanel* runPanel() const { return run_panel_; }
    RunController* controller() const { return controller_; }
    DocumentLoader* loader() const { return loader_; }
    DocumentPages* pages() const { return pages_; }
    DocumentSelector* documents() const { return documents_; }
    DocumentSelection* selection() const { return selection_; }
    CompareSelector* compareSelector() const { return compare_; }
    StatusBar* statusBarWidget() const { return status_; }
    // The Live jobs panel (View ▸ Live Jobs): shown, it answers the PyTorch
    // jobs of this machine.
    LiveJobsPanel* liveJobs() const;
    void showLiveJobs();
    // The widget of the view `name` names in the catalog ("operators"), as W.
    template <typename W> W* page(const char* name) const {
        return static_cast<W*>(viewWidget(name));
    }
    QWidget* viewWidget(const char* name) const; // throws for a name with no page

    // This machine as LibTorch probed it (the window starts with
    // Machine::beforeLibTorch()): the form's devices, the status bar.
    void setMachine(const Machine& machine);
    const Machine& machine() const { return machine_; }
    // Unless the window has LibTorch's machine already: probes it on a thread
    // of its own (loading the TorchBackend) once no trace is being read, both
    // wanting the CPU, then setMachine().
    void probeMachineWhenIdle();
    bool probingMachine() const { return machine_probe_.isRunning(); }

    // Makes the view of this catalog name current (offering it when the open
    // document does not); false for a name with no page.
    bool showView(const QString& name);
    ViewId currentView() const;
    // Whether the view of this catalog name is offered for what is open.
    bool offers(const QString& name) const;
    // Restores geometry, dock layout, tab and the last experiment.
    void restoreSession();

public slots:
    // Opens `path` as another document and shows it; a path already open is
    // shown again rather than read twice.
    void openPath(const QString& path);
    void closeDocument();
    // Starts the kind of run the dock shows: the model form's, or the script's.
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
    void buildDock();
    // View ▸ one action per page, with the shortcuts the pages declare.
    void buildViewActions();
    void wireRun();
    void wireDocuments();
    void wireActions();
    void onRunFinished(const RunOutcome& outcome);
    // Start waits for a study to end and for the shown form to be ready.
    void updateStartBlocked();
    void onOpened(const OpenedDocument& document);
    // Shows `document` (null: none) in every view (the tab stays as it is).
    void showDocument(const OpenedDocument* document);
    void showFormFor(bool run);
    void rebuildRecentMenu();
    void reportError(const QString& message);
    void saveSession();
    void chooseAndOpen(bool directory);
    void saveScreenshotInteractive();
    void showShortcuts();
    // Settings ▸ LibTorch: the module to load from the next start.
    void chooseLibTorch();

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
    ScriptForm* script_form_;
    RunForms* forms_;
    RunPanel* run_panel_;
    RunController* controller_;
    StudyActivity* studies_;
    DocumentLoader* loader_;
    DocumentSelector* documents_;
    DocumentSelection* selection_;
    SelectionBar* selection_bar_;
    CompareSelector* compare_ = nullptr;
    StatusBar* status_;
    ViewTabs* tabs_;
    DocumentPages* pages_ = nullptr; // every view, made from the registry
    LiveCaptures* captures_ = nullptr;
    QDockWidget* dock_ = nullptr;
    LiveJobsDock* live_jobs_ = nullptr; // hidden until asked for
    QMenu* recent_;
};

} // namespace ts::gui
