#include "shell/MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QTimer>
#include <QVBoxLayout>

#include "charts/OffscreenChartRenderer.h"
#include "common/AppSettings.h"
#include "common/DocumentSelection.h"
#include "common/ExportFile.h"
#include "common/ThemePalette.h"
#include "form/ExperimentForm.h"
#include "form/RunForms.h"
#include "form/RunPanel.h"
#include "form/ScriptConsole.h"
#include "form/ScriptForm.h"
#include "livejobs/LiveJobsPanel.h"
#include "shell/AppActions.h"
#include "shell/CompareSelector.h"
#include "shell/DocumentLoader.h"
#include "shell/DocumentPages.h"
#include "shell/DocumentSelector.h"
#include "shell/ExperimentFiles.h"
#include "shell/LibTorchDialog.h"
#include "shell/LiveCaptures.h"
#include "shell/LiveJobsDock.h"
#include "shell/LoadIndicator.h"
#include "shell/ScriptFiles.h"
#include "shell/SelectionBar.h"
#include "shell/StatusBar.h"
#include "shell/ViewRegistry.h"
#include "sources/SourceRegistry.h"
#include "training/RunController.h"
#include "training/StudyActivity.h"

namespace ts::gui {
namespace {

// How often a LibTorch load waiting for a trace's read looks again.
constexpr int kMachineProbeRetryMs = 200;
// Room for the Live jobs panel's command lines and progress.
constexpr int kLiveJobsWidth = 560;

} // namespace

MainWindow::MainWindow(AppSettings& settings, const Machine& machine, QWidget* parent)
    : QMainWindow(parent), settings_(settings), machine_(machine),
      machine_probe_([this](const MachineProbe& probe) { onMachineProbed(probe); }),
      actions_(std::make_unique<AppActions>(this)),
      form_(new ExperimentForm(machine.presets, machine.devices, machine.support)),
      script_form_(new ScriptForm), forms_(new RunForms(form_, script_form_)),
      run_panel_(new RunPanel), controller_(new RunController(this)),
      studies_(new StudyActivity(this)), loader_(new DocumentLoader(this)),
      documents_(new DocumentSelector), selection_(new DocumentSelection(this)),
      selection_bar_(new SelectionBar(*selection_)), status_(new StatusBar(machine.env)),
      tabs_(new ViewTabs), recent_(new QMenu(tr("Open &Recent"), this)) {
    setWindowTitle(tr("Trainscope"));
    setObjectName(QStringLiteral("mainWindow"));
    // Sweeps, ladders and pruning started here write their reports with charts, as the CLI does.
    installOffscreenChartRenderer();
    setAcceptDrops(true);
    const ViewContext context{settings_,
                              *form_,
                              *controller_,
                              *selection_,
                              *documents_,
                              *studies_,
                              [this](const QString& path) { openPath(path); }};
    pages_ = new DocumentPages(*tabs_, context, this);
    captures_ = new LiveCaptures(this);
    compare_ = new CompareSelector(*documents_);
    auto* corner = new QWidget;
    auto* corner_layout = new QHBoxLayout(corner);
    corner_layout->setContentsMargins(0, 0, 0, 0);
    corner_layout->addWidget(selection_bar_);
    corner_layout->addWidget(documents_);
    corner_layout->addWidget(compare_);
    tabs_->setCornerWidget(corner, Qt::TopRightCorner);
    setCentralWidget(tabs_);
    setStatusBar(status_);
    buildDock();
    buildViewActions();
    buildMenus(*this, *actions_, recent_);
    controller_->setRunsRoot(settings_.runsRoot());
    wireRun();
    wireDocuments();
    wireActions();
    rebuildRecentMenu();
}

void MainWindow::probeMachineWhenIdle() {
    if (machine_.probed || machine_probe_.isRunning()) return;
    if (loader_->busy()) {
        QTimer::singleShot(kMachineProbeRetryMs, this, &MainWindow::probeMachineWhenIdle);
        return;
    }
    machine_probe_.start([](const CancelFlag&) {
        MachineProbe probe;
        try {
            probe.machine = Machine::probe();
        } catch (const std::exception& e) {
            probe.error = QString::fromUtf8(e.what());
        }
        return probe;
    });
}

void MainWindow::onMachineProbed(const MachineProbe& probe) {
    if (probe.error.isEmpty())
        setMachine(probe.machine);
    else
        reportError(tr("Training is unavailable: %1").arg(probe.error));
}

void MainWindow::setMachine(const Machine& machine) {
    machine_ = machine;
    form_->setDevices(machine.devices, machine.support);
    form_->setFeatures(machine.features);
    status_->setEnvironment(machine.env);
    status_->setLibTorch(QString::fromStdString(machine.libTorchLabel()),
                         QString::fromStdString(machine.libTorchDetails()));
    // A module passed over is said once where it is seen, not only in the tooltip.
    if (!machine.load.skipped.empty())
        statusBar()->showMessage(tr("Training on %1; not loaded: %2")
                                     .arg(QString::fromStdString(machine.libTorchLabel()),
                                          QString::fromStdString(machine.load.skipped.front())),
                                 30000);
    status_->setDevice(QString::fromStdString(machine_.deviceLabel(form_->config().device)));
}

MainWindow::~MainWindow() = default;

QWidget* MainWindow::viewWidget(const char* name) const {
    const ViewPage* page = findViewPage(QString::fromLatin1(name));
    if (!page) throw std::logic_error(std::string("no view page named ") + name);
    return tabs_->widget(page->info);
}

void MainWindow::buildDock() {
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(forms_, 1);
    layout->addWidget(run_panel_);
    dock_ = new QDockWidget(tr("Experiment"), this);
    dock_->setObjectName(QStringLiteral("experimentDock"));
    dock_->setWidget(panel);
    dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, dock_);
    resizeDocks({dock_}, {380}, Qt::Horizontal);
    // Beside the form, a tab of the same column: the views keep their width.
    live_jobs_ = new LiveJobsDock(*this, settings_);
    addDockWidget(Qt::LeftDockWidgetArea, live_jobs_);
    tabifyDockWidget(dock_, live_jobs_);
    live_jobs_->hide();
}

LiveJobsPanel* MainWindow::liveJobs() const {
    return live_jobs_->panel();
}

void MainWindow::showLiveJobs() {
    live_jobs_->show();
    live_jobs_->raise();
    // Now, not at the first paint: automation looks at once.
    live_jobs_->panel()->startDaemon();
    resizeDocks({live_jobs_}, {kLiveJobsWidth}, Qt::Horizontal);
}

void MainWindow::buildViewActions() {
    const views::Group* last = nullptr;
    for (const ViewPage& page : viewPages()) {
        if (last && *last != page.info->group) actions_->views << nullptr;
        last = &page.info->group;
        auto* action = new QAction(QString::fromUtf8(page.info->title), this);
        if (page.shortcut) action->setShortcut(QKeySequence(QString::fromLatin1(page.shortcut)));
        const QString name = QString::fromLatin1(page.info->name);
        connect(action, &QAction::triggered, this, [this, name] { showView(name); });
        actions_->views << action;
    }
}

void MainWindow::wireRun() {
    // Every re-check of the form (edits, presets, loaded configs) updates Start and the device
    // shown.
    connect(form_, &ExperimentForm::issuesChanged, this, [this] {
        updateStartBlocked();
        status_->setDevice(QString::fromStdString(machine_.deviceLabel(form_->config().device)));
    });
    connect(script_form_, &ScriptForm::readinessChanged, this, &MainWindow::updateStartBlocked);
    connect(forms_, &RunForms::kindChanged, this, &MainWindow::updateStartBlocked);
    connect(run_panel_, &RunPanel::startClicked, this, &MainWindow::startRun);
    connect(run_panel_, &RunPanel::stopClicked, controller_, &RunController::stop);
    connect(controller_, &RunController::stopRequested, run_panel_, &RunPanel::setStopping);
    connect(controller_, &RunController::runStarted, this, [this](const RunLaunch& launch) {
        forms_->setRunning(true);
        if (launch.script) script_form_->beginRun();
        run_panel_->setRunning(true, launch.script ? tr("Starting the script…") : QString());
        status_->showMessage(tr("Run started in %1").arg(launch.runDir));
    });
    connect(controller_, &RunController::runStarted, captures_, &LiveCaptures::runStarted);
    connect(controller_, &RunController::updated, captures_, &LiveCaptures::update);
    // A profiled run's windows fill the views of a trace (not listed as documents).
    connect(captures_, &LiveCaptures::captured, this,
            [this](const OpenedDocument& doc) { showDocument(&doc); });
    connect(controller_, &RunController::updated, script_form_->console(), &ScriptConsole::append);
    connect(script_form_->console(), &ScriptConsole::traceRequested, controller_,
            &RunController::traceNextSteps);
    connect(script_form_->console(), &ScriptConsole::snapshotRequested, controller_,
            &RunController::memorySnapshot);
    connect(controller_, &RunController::progressChanged, run_panel_, &RunPanel::setProgress);
    connect(controller_, &RunController::progressChanged, status_, &StatusBar::showProgress);
    connect(controller_, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(controller_, &RunController::startFailed, this, &MainWindow::reportError);
    // A sweep, ladder or pruning study and a single run never run together (each view blocks its
    // own Start).
    connect(studies_, &StudyActivity::runningChanged, this, &MainWindow::updateStartBlocked);
    form_->revalidate(); // the connections above take the form's current state
}

void MainWindow::wireDocuments() {
    LoadIndicator* indicator = status_->loadIndicator();
    connect(loader_, &DocumentLoader::started, this,
            [this](const QString& path) { status_->showMessage(tr("Opening %1 …").arg(path)); });
    connect(loader_, &DocumentLoader::progressed, indicator, &LoadIndicator::showProgress);
    connect(indicator, &LoadIndicator::cancelClicked, loader_, &DocumentLoader::cancel);
    connect(loader_, &DocumentLoader::opened, this, &MainWindow::onOpened);
    // A large trace's lazy views are analysed when one of them is first shown.
    connect(pages_, &DocumentPages::computingStarted, this,
            [this](const QString& what) { status_->showMessage(tr("Analysing %1 …").arg(what)); });
    connect(pages_, &DocumentPages::computingFinished, status_, &StatusBar::clearMessage);
    connect(documents_, &DocumentSelector::chosen, this,
            [this](const OpenedDocument& doc) { showDocument(&doc); });
    connect(documents_, &DocumentSelector::emptied, this, [this] { showDocument(nullptr); });
    connect(documents_, &DocumentSelector::closed, selection_, &DocumentSelection::forget);
    connect(compare_, &CompareSelector::changed, pages_, &DocumentPages::setBaseline);
    // Pages ask for each other by name: "show this event on the timeline".
    connect(selection_, &DocumentSelection::viewRequested, this, &MainWindow::showView);
}

void MainWindow::wireActions() {
    const AppActions& a = *actions_;
    connect(a.open_run, &QAction::triggered, this, [this] { chooseAndOpen(true); });
    connect(a.open_trace, &QAction::triggered, this, [this] { chooseAndOpen(false); });
    connect(a.close_document, &QAction::triggered, this, &MainWindow::closeDocument);
    connect(a.load_config, &QAction::triggered, this,
            [this] { loadExperimentInteractive(this, settings_, *form_); });
    connect(a.save_config, &QAction::triggered, this,
            [this] { saveExperimentInteractive(this, settings_, *form_); });
    connect(a.screenshot, &QAction::triggered, this, &MainWindow::saveScreenshotInteractive);
    connect(a.quit, &QAction::triggered, this, &QWidget::close);
    connect(a.start, &QAction::triggered, this, &MainWindow::startRun);
    connect(a.stop, &QAction::triggered, controller_, &RunController::stop);
    // The form and the Live jobs share a column as tabs: a dock behind the
    // other's tab is unchecked (not visible), and checking it brings it up.
    a.toggle_form->setChecked(true);
    connect(a.toggle_form, &QAction::triggered, this, [this](bool on) {
        dock_->setVisible(on);
        if (on) dock_->raise();
    });
    connect(dock_, &QDockWidget::visibilityChanged, a.toggle_form, &QAction::setChecked);
    connect(a.toggle_live_jobs, &QAction::triggered, this, [this](bool on) {
        if (on)
            showLiveJobs();
        else
            live_jobs_->hide();
    });
    connect(live_jobs_, &QDockWidget::visibilityChanged, a.toggle_live_jobs, &QAction::setChecked);
    const std::pair<QAction*, Theme> themes[] = {{a.theme_system, Theme::System},
                                                 {a.theme_light, Theme::Light},
                                                 {a.theme_dark, Theme::Dark}};
    for (const auto& [action, theme] : themes) {
        action->setChecked(settings_.theme() == theme);
        connect(action, &QAction::triggered, this, [this, theme = theme] {
            settings_.setTheme(theme);
            applyTheme(theme);
        });
    }
    connect(a.shortcuts, &QAction::triggered, this, &MainWindow::showShortcuts);
    connect(a.libtorch, &QAction::triggered, this, &MainWindow::chooseLibTorch);
    connect(a.about, &QAction::triggered, this, [this] {
        QMessageBox::about(
            this, tr("About Trainscope"),
            tr("<b>Trainscope %1</b><p>A workbench for profiling neural-network training "
               "with LibTorch.</p><p>%2</p>")
                .arg(QStringLiteral(TRAINSCOPE_VERSION),
                     status_->environmentText().toHtmlEscaped()));
    });
}

void MainWindow::chooseLibTorch() {
    const QString loaded = QString::fromStdString(machine_.load.module.path.string());
    LibTorchDialog dialog(settings_.torchBackend(), findBackendModules(backendModuleFolders()),
                          loaded, this);
    if (dialog.exec() != QDialog::Accepted || dialog.choice() == settings_.torchBackend()) return;
    settings_.setTorchBackend(dialog.choice());
    statusBar()->showMessage(tr("LibTorch: the choice takes effect when Trainscope starts again"),
                             10000);
}

void MainWindow::startRun() {
    if (studies_->running()) {
        reportError(
            tr("A sweep, ladder or pruning study is running (Experiments tab); wait or stop it."));
        return;
    }
    if (forms_->kind() == RunKind::Script) {
        script_form_->revalidate();
        controller_->startScript(script_form_->options());
        return;
    }
    form_->revalidate();
    controller_->start(form_->config(), form_->processes());
}

void MainWindow::updateStartBlocked() {
    QString reason;
    if (studies_->running())
        reason = tr("A sweep, ladder or pruning study is running.");
    else if (forms_->kind() == RunKind::Script)
        reason = script_form_->startBlockedReason();
    else if (!form_->isValid())
        reason = tr("Fix the highlighted fields first (%1 issues).").arg(form_->issues().size());
    run_panel_->setStartBlocked(reason);
}

void MainWindow::onRunFinished(const RunOutcome& outcome) {
    forms_->setRunning(false);
    run_panel_->setFinished(outcome);
    status_->showMessage(tr("Run %1").arg(QString::fromLatin1(toString(outcome.summary.status))));
    if (outcome.summary.status == RunStatus::Failed)
        reportError(QString::fromStdString(outcome.summary.error));
}

void MainWindow::openPath(const QString& path) {
    // Already open: show it again. Reading it anew would cost the load for the
    // same events; Close Document and open it to re-read a changed file.
    const int index = documents_->indexOf(documentPath(path));
    if (index < 0) {
        loader_->open(path);
        return;
    }
    documents_->select(index);
    const OpenedDocument& doc = documents_->at(index);
    showDocument(&doc);
    if (doc.source) showView(QString::fromLatin1(doc.source->first_view));
    emit documentShown(doc);
}

void MainWindow::closeDocument() {
    documents_->closeCurrent();
}

void MainWindow::onOpened(const OpenedDocument& doc) {
    status_->loadIndicator()->finish(); // the next queued load shows it again
    const QString path = QString::fromStdString(doc.path);
    if (doc.cancelled) {
        status_->showMessage(tr("Stopped opening %1").arg(path), 5000);
    } else if (!doc.ok()) {
        reportError(QString::fromStdString(doc.error));
    } else {
        settings_.addRecentFile(path);
        rebuildRecentMenu();
        documents_->add(doc);
        showDocument(&doc);
        // Each kind opens on its own view: a rank folder on its ranks, a snapshot on its memory.
        showView(QString::fromLatin1(doc.source->first_view));
        status_->showMessage(tr("Opened %1").arg(path), 5000);
    }
    emit documentShown(doc);
}

void MainWindow::showDocument(const OpenedDocument* doc) {
    setWindowTitle(doc ? tr("%1 — Trainscope").arg(QString::fromStdString(doc->title()))
                       : tr("Trainscope"));
    // A run's profiling windows are documents of one path: each keeps its own selection.
    selection_->setDocument(doc ? QString::fromStdString(doc->path + doc->label) : QString());
    selection_bar_->setTrace(doc ? doc->trace : nullptr);
    pages_->show(doc);
    showFormFor(!doc || doc->provides(views::Input::Run));
}

// The form takes a quarter of the window: out of the way while a trace is
// viewed, back for a run (and while one trains). View ▸ Experiment Panel
// brings it back at any time.
void MainWindow::showFormFor(bool run) {
    dock_->setVisible(run || controller_->isRunning() || studies_->running());
}

bool MainWindow::showView(const QString& name) {
    const ViewPage* page = findViewPage(name);
    if (page) tabs_->showView(page->info);
    return page != nullptr;
}

ViewId MainWindow::currentView() const {
    return tabs_->currentView();
}

bool MainWindow::offers(const QString& name) const {
    const ViewPage* page = findViewPage(name);
    return page && tabs_->offered(page->info);
}

void MainWindow::rebuildRecentMenu() {
    recent_->clear();
    for (const QString& path : settings_.recentFiles())
        recent_->addAction(QFileInfo(path).fileName() + QStringLiteral("  —  ") + path, this,
                           [this, path] { openPath(path); });
    if (recent_->isEmpty()) recent_->addAction(tr("(none)"))->setEnabled(false);
    recent_->addSeparator();
    recent_->addAction(tr("Clear"), this, [this] {
        settings_.clearRecentFiles();
        rebuildRecentMenu();
    });
}

void MainWindow::reportError(const QString& message) {
    status_->showMessage(message.section(QLatin1Char('\n'), 0, 0), 10000);
    emit errorReported(message);
}

void MainWindow::chooseAndOpen(bool directory) {
    const QString start =
        settings_.lastBrowseDir().isEmpty() ? settings_.runsRoot() : settings_.lastBrowseDir();
    const QString path =
        directory ? QFileDialog::getExistingDirectory(
                        this,
                        tr("Open a run directory, a folder of per-rank traces or a study's "
                           "directory"),
                        start)
                  : QFileDialog::getOpenFileName(
                        this, tr("Open a trace, allocator snapshot or memory timeline"), start,
                        tr("Traces and memory timelines (*.json *.json.gz);;Allocator snapshots "
                           "(*.pickle *.pkl);;All files (*)"));
    if (path.isEmpty()) return;
    settings_.setLastBrowseDir(QFileInfo(path).absolutePath());
    openPath(path);
}

void MainWindow::saveScreenshotInteractive() {
    exportFileInteractive(this, settings_, tr("Save screenshot"), QStringLiteral("trainscope.png"),
                          tr("PNG images (*.png)"), [this](const QString& path, QString* error) {
                              if (grab().save(path)) return true;
                              if (error) *error = tr("Cannot write %1.").arg(path);
                              return false;
                          });
}

void MainWindow::showShortcuts() {
    QString html = QStringLiteral("<table>");
    for (QAction* action : actions_->all()) {
        const QString keys =
            QKeySequence::listToString(action->shortcuts(), QKeySequence::NativeText);
        if (!keys.isEmpty())
            html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(keys.toHtmlEscaped(), action->text().remove(QLatin1Char('&')));
    }
    html +=
        tr("<tr><td><b>Alt+Left</b></td><td>the selection before</td></tr>"
           "<tr><td colspan=2><br><b>Timeline</b></td></tr>"
           "<tr><td><b>Wheel, W / S</b></td><td>zoom in / out</td></tr>"
           "<tr><td><b>Drag, A / D, ← / →</b></td><td>pan</td></tr>"
           "<tr><td><b>Shift+Wheel, ↑ / ↓</b></td><td>scroll lanes</td></tr>"
           "<tr><td><b>Click / F / 0</b></td><td>select / zoom to selection / show all</td></tr>"
           "<tr><td><b>Shift+drag, M</b></td><td>select a time range for every view</td></tr>"
           "<tr><td><b>Ctrl+F, Enter</b></td><td>search, next match</td></tr>"
           "<tr><td colspan=2><br><b>Live charts</b></td></tr>"
           "<tr><td><b>Wheel / drag / End</b></td><td>zoom / pan / follow the newest "
           "steps</td></tr></table>");
    QMessageBox::information(this, tr("Keyboard shortcuts"), html);
}

void MainWindow::restoreSession() {
    restoreGeometry(settings_.windowGeometry());
    restoreState(settings_.windowState());
    showView(settings_.currentView());
    restoreExperiment(settings_, *form_);
    restoreScript(settings_, *forms_, *script_form_);
}

void MainWindow::saveSession() {
    settings_.setWindowGeometry(saveGeometry());
    settings_.setWindowState(saveState());
    if (const ViewId view = currentView())
        settings_.setCurrentView(QString::fromLatin1(view->name));
    rememberExperiment(settings_, *form_);
    rememberScript(settings_, *forms_, *script_form_);
    settings_.sync();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (controller_->isRunning() || studies_->running()) {
        const auto answer = QMessageBox::question(this, tr("Quit"),
                                                  tr("A run is in progress. Stop it and quit? "
                                                     "What was measured so far is kept."));
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return;
        }
        controller_->stop();
        studies_->stop();
    }
    saveSession();
    live_jobs_->panel()->stopDaemon(); // the jobs' socket is free for another daemon
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) openPath(url.toLocalFile());
    event->acceptProposedAction();
}

} // namespace ts::gui
