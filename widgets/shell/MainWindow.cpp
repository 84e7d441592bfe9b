#include "shell/MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QTimer>
#include <QVBoxLayout>

#include "charts/OffscreenChartRenderer.h"
#include "common/AppSettings.h"
#include "common/ExportFile.h"
#include "common/SpecTablesView.h"
#include "common/ThemePalette.h"
#include "diff/TraceDiffView.h"
#include "experiments/ReportReader.h"
#include "form/ExperimentForm.h"
#include "form/RunPanel.h"
#include "gpu/CriticalPathView.h"
#include "gpu/KernelsView.h"
#include "gpu/OverviewView.h"
#include "live/LiveView.h"
#include "memory/CategoryTimelineView.h"
#include "memory/MemoryUsageView.h"
#include "memory/SnapshotView.h"
#include "modules/ModulesView.h"
#include "operators/OperatorsView.h"
#include "ranks/RanksView.h"
#include "roofline/RooflineView.h"
#include "runs/RunsView.h"
#include "shell/AppActions.h"
#include "shell/DeferredViews.h"
#include "shell/DocumentLoader.h"
#include "shell/DocumentSelector.h"
#include "shell/ExperimentFiles.h"
#include "shell/LoadIndicator.h"
#include "shell/StatusBar.h"
#include "shell/ViewRegistry.h"
#include "shell/ViewTabs.h"
#include "sql/QueryView.h"
#include "studies/ExperimentsView.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "training/RunController.h"

namespace ts::gui {
namespace {

// How often a LibTorch load waiting for a trace's read looks again.
constexpr int kMachineProbeRetryMs = 200;

} // namespace

MainWindow::MainWindow(AppSettings& settings, const Machine& machine, QWidget* parent)
    : QMainWindow(parent), settings_(settings), machine_(machine),
      machine_probe_([this](const MachineProbe& probe) { onMachineProbed(probe); }),
      actions_(std::make_unique<AppActions>(this)),
      form_(new ExperimentForm(machine.presets, machine.devices, machine.support)),
      run_panel_(new RunPanel), controller_(new RunController(this)),
      loader_(new DocumentLoader(this)), documents_(new DocumentSelector),
      status_(new StatusBar(machine.env)), tabs_(new ViewTabs),
      recent_(new QMenu(tr("Open &Recent"), this)) {
    setWindowTitle(tr("Trainscope"));
    setObjectName(QStringLiteral("mainWindow"));
    // Sweeps, ladders and pruning started here write their reports with charts, as the CLI does.
    installOffscreenChartRenderer();
    setAcceptDrops(true);
    const ViewContext context{settings_, *form_, *controller_};
    for (const ViewPage& page : viewPages())
        tabs_->addView(page.id, QString::fromUtf8(page.info->title), page.info->group,
                       page.create(context));
    offerViewsFor(nullptr); // nothing open yet
    tabs_->setCornerWidget(documents_, Qt::TopRightCorner);
    setCentralWidget(tabs_);
    setStatusBar(status_);
    buildDock();
    buildMenus(*this, *actions_, recent_);
    controller_->setRunsRoot(settings_.runsRoot());
    wireRun();
    wireDocuments();
    wireActions();
    rebuildRecentMenu();
    runsView()->rescan();
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
    status_->setEnvironment(machine.env);
    status_->setDevice(QString::fromStdString(machine_.deviceLabel(form_->config().device)));
}

MainWindow::~MainWindow() = default;

template <typename T> T* MainWindow::viewAs(View view) const {
    return static_cast<T*>(tabs_->view(view));
}

OverviewView* MainWindow::overviewView() const {
    return viewAs<OverviewView>(View::Overview);
}
KernelsView* MainWindow::kernelsView() const {
    return viewAs<KernelsView>(View::Kernels);
}

SpecTablesView* MainWindow::tablesView(View view) const {
    return qobject_cast<SpecTablesView*>(viewAs<QWidget>(view));
}
MemoryUsageView* MainWindow::memoryView() const {
    return viewAs<MemoryUsageView>(View::Memory);
}
ModulesView* MainWindow::modulesView() const {
    return viewAs<ModulesView>(View::Modules);
}
RanksView* MainWindow::distributedView() const {
    return viewAs<RanksView>(View::Distributed);
}
TraceDiffView* MainWindow::diffView() const {
    return viewAs<TraceDiffView>(View::Diff);
}
LiveView* MainWindow::liveView() const {
    return viewAs<LiveView>(View::Live);
}
OperatorsView* MainWindow::operatorsView() const {
    return viewAs<OperatorsView>(View::Operators);
}
QueryView* MainWindow::queryView() const {
    return viewAs<QueryView>(View::Query);
}

TimelineView* MainWindow::timelineView() const {
    return viewAs<TimelineView>(View::Timeline);
}
RunsView* MainWindow::runsView() const {
    return viewAs<RunsView>(View::Runs);
}
ExperimentsView* MainWindow::experimentsView() const {
    return viewAs<ExperimentsView>(View::Experiments);
}
RooflineView* MainWindow::rooflineView() const {
    return viewAs<RooflineView>(View::Roofline);
}

void MainWindow::buildDock() {
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(form_, 1);
    layout->addWidget(run_panel_);
    dock_ = new QDockWidget(tr("Experiment"), this);
    dock_->setObjectName(QStringLiteral("experimentDock"));
    dock_->setWidget(panel);
    dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, dock_);
    resizeDocks({dock_}, {380}, Qt::Horizontal);
}

void MainWindow::wireRun() {
    // Every re-check of the form (edits, presets, loaded configs) updates Start and the device
    // shown.
    connect(form_, &ExperimentForm::issuesChanged, this,
            [this](const std::vector<ConfigIssue>& issues) {
                run_panel_->setStartBlocked(
                    issues.empty()
                        ? QString()
                        : tr("Fix the highlighted fields first (%1 issues).").arg(issues.size()));
                status_->setDevice(
                    QString::fromStdString(machine_.deviceLabel(form_->config().device)));
            });
    connect(run_panel_, &RunPanel::startClicked, this, &MainWindow::startRun);
    connect(run_panel_, &RunPanel::stopClicked, controller_, &RunController::stop);
    connect(controller_, &RunController::stopRequested, run_panel_, &RunPanel::setStopping);
    connect(controller_, &RunController::runStarted, this, [this](const RunLaunch& launch) {
        form_->setRunning(true);
        run_panel_->setRunning(true);
        liveView()->beginRun(launch);
        rooflineView()->setRunConfig(launch.config);
        showView(View::Live);
        status_->showMessage(tr("Run started in %1").arg(launch.runDir));
    });
    connect(controller_, &RunController::updated, this, &MainWindow::onUpdate);
    connect(controller_, &RunController::progressChanged, run_panel_, &RunPanel::setProgress);
    connect(controller_, &RunController::progressChanged, status_, &StatusBar::showProgress);
    connect(controller_, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(controller_, &RunController::startFailed, this, &MainWindow::reportError);
    // A sweep, ladder or pruning study and a single run never run together (each view blocks its
    // own Start).
    connect(experimentsView(), &ExperimentsView::runningChanged, this, [this](bool running) {
        run_panel_->setStartBlocked(running ? tr("A sweep, ladder or pruning study is running.")
                                            : QString());
        if (!running) form_->revalidate(); // the form's own reason, if any
    });
    form_->revalidate(); // the connections above take the form's current state
}

void MainWindow::wireDocuments() {
    LoadIndicator* indicator = status_->loadIndicator();
    connect(loader_, &DocumentLoader::started, this,
            [this](const QString& path) { status_->showMessage(tr("Opening %1 …").arg(path)); });
    connect(loader_, &DocumentLoader::progressed, indicator, &LoadIndicator::showProgress);
    connect(indicator, &LoadIndicator::cancelClicked, loader_, &DocumentLoader::cancel);
    connect(loader_, &DocumentLoader::opened, this, &MainWindow::onOpened);
    // A large trace's Operators, Kernels, Memory, Modules and Roofline tabs
    // are filled when one of them is first shown.
    deferred_ = new DeferredViews(
        [this](View view, const std::shared_ptr<const Trace>& trace, const QString& description,
               const DeferredAnalysis& all) {
            fillAnalysedView(view, trace, description, all);
            // A large trace's diagnoses come with the first diagnosis view
            // shown: the timeline and the Overview take them then.
            diagnosesMade(trace, all.diagnoses);
        },
        this);
    connect(tabs_, &ViewTabs::currentViewChanged, deferred_, &DeferredViews::viewShown);
    connect(deferred_, &DeferredViews::computingStarted, this, [this](const QString& what) {
        status_->showMessage(tr("Analysing %1 …").arg(what));
        const View view = currentView();
        if (deferred_->waiting(view))
            showAnalysisPending(view, tr("%1\nAnalysing it for this tab …").arg(what));
    });
    connect(deferred_, &DeferredViews::computingFinished, this, [this] {
        status_->clearMessage();
        deferred_->viewShown(currentView()); // another document may be waiting now
    });
    connect(documents_, &DocumentSelector::chosen, this, &MainWindow::showDocument);
    connect(documents_, &DocumentSelector::emptied, this, &MainWindow::showNoDocument);
    // Closing (the menu, Ctrl+W or the box's × button) changes what Diff can compare.
    connect(documents_, &DocumentSelector::chosen, this, &MainWindow::updateDiffDocuments);
    connect(documents_, &DocumentSelector::emptied, this, &MainWindow::updateDiffDocuments);
    connect(runsView(), &RunsView::openRequested, this, &MainWindow::openPath);
    connect(experimentsView(), &ExperimentsView::openRunRequested, this, &MainWindow::openPath);
}

void MainWindow::wireActions() {
    const AppActions& a = *actions_;
    connect(a.open_run, &QAction::triggered, this, [this] { chooseAndOpen(true); });
    connect(a.open_trace, &QAction::triggered, this, [this] { chooseAndOpen(false); });
    connect(a.close_document, &QAction::triggered, this, &MainWindow::closeDocument);
    for (const ViewPage& page : viewPages())
        if (SpecTablesView* tables = tablesView(page.id))
            connect(tables, &SpecTablesView::eventActivated, this, [this](int32_t event) {
                showView(View::Timeline);
                timelineView()->timeline()->selectEvent(event, true);
                timelineView()->timeline()->zoomToEvent(event);
            });
    connect(viewAs<CriticalPathView>(View::CriticalPath), &CriticalPathView::pathChanged,
            timelineView()->timeline(), &TimelineWidget::setCriticalPath);
    QueryView* query = queryView();
    connect(query, &QueryView::eventActivated, this, [this](int32_t event) {
        showView(View::Timeline);
        timelineView()->timeline()->selectEvent(event, true);
        timelineView()->timeline()->zoomToEvent(event);
    });
    connect(query, &QueryView::eventsShown, this, [this](const std::vector<int32_t>& events) {
        showView(View::Timeline);
        timelineView()->timeline()->setFocusEvents(events);
        if (!events.empty()) timelineView()->timeline()->selectEvent(events.front(), true);
    });
    connect(overviewView(), &OverviewView::viewRequested, this, [this](const QString& name) {
        for (const ViewPage& page : viewPages())
            if (name == QLatin1String(page.info->name)) showView(page.id);
    });
    connect(modulesView(), &ModulesView::callActivated, this, [this](const ModuleCall& call) {
        showView(View::Timeline);
        timelineView()->showSpan(call.lane, call.start_ns, call.end_ns);
    });
    connect(a.load_config, &QAction::triggered, this,
            [this] { loadExperimentInteractive(this, settings_, *form_); });
    connect(a.save_config, &QAction::triggered, this,
            [this] { saveExperimentInteractive(this, settings_, *form_); });
    connect(a.screenshot, &QAction::triggered, this, &MainWindow::saveScreenshotInteractive);
    connect(a.quit, &QAction::triggered, this, &QWidget::close);
    connect(a.start, &QAction::triggered, this, &MainWindow::startRun);
    connect(a.stop, &QAction::triggered, controller_, &RunController::stop);
    connect(a.view_live, &QAction::triggered, this, [this] { showView(View::Live); });
    connect(a.view_operators, &QAction::triggered, this, [this] { showView(View::Operators); });
    connect(a.view_timeline, &QAction::triggered, this, [this] { showView(View::Timeline); });
    connect(a.view_runs, &QAction::triggered, this, [this] { showView(View::Runs); });
    connect(a.view_experiments, &QAction::triggered, this, [this] { showView(View::Experiments); });
    connect(a.view_roofline, &QAction::triggered, this, [this] { showView(View::Roofline); });
    a.toggle_form->setChecked(true);
    connect(a.toggle_form, &QAction::toggled, dock_, &QDockWidget::setVisible);
    connect(dock_, &QDockWidget::visibilityChanged, a.toggle_form, &QAction::setChecked);
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
    connect(a.about, &QAction::triggered, this, [this] {
        QMessageBox::about(
            this, tr("About Trainscope"),
            tr("<b>Trainscope %1</b><p>A workbench for profiling neural-network training "
               "with LibTorch.</p><p>%2</p>")
                .arg(QStringLiteral(TRAINSCOPE_VERSION),
                     status_->environmentText().toHtmlEscaped()));
    });
}

void MainWindow::startRun() {
    if (experimentsView()->isRunning()) {
        reportError(
            tr("A sweep, ladder or pruning study is running (Experiments tab); wait or stop it."));
        return;
    }
    form_->revalidate();
    controller_->start(form_->config(), form_->processes());
}

void MainWindow::onUpdate(const LiveUpdate& update) {
    liveView()->append(update);
    if (update.profiles.empty()) return;
    // A profiled run's captures fill the views of a trace.
    for (const ViewPage& page : viewPages())
        if (page.clear) tabs_->setOffered(page.id, true);
    const std::shared_ptr<const ProfileCapture>& capture = update.profiles.back();
    // Aliasing pointer: the trace lives as long as its capture.
    showTrace(std::shared_ptr<const Trace>(capture, &capture->trace),
              tr("Profiling window %1 of the current run: steps %2–%3, %4 events")
                  .arg(capture->window + 1)
                  .arg(capture->first_step)
                  .arg(capture->last_step)
                  .arg(capture->trace.events.size()));
}

void MainWindow::onRunFinished(const RunOutcome& outcome) {
    form_->setRunning(false);
    run_panel_->setFinished(outcome);
    liveView()->finishRun(outcome);
    status_->showMessage(tr("Run %1").arg(QString::fromLatin1(toString(outcome.summary.status))));
    if (!outcome.runDir.isEmpty()) runsView()->addRun(outcome.runDir);
    if (outcome.summary.status == RunStatus::Failed)
        reportError(QString::fromStdString(outcome.summary.error));
}

bool MainWindow::openExperimentDirectory(const QString& path) {
    if (reportKind(path.toStdString()) == ReportKind::None) return false;
    QString error;
    if (experimentsView()->openDirectory(path, &error))
        showView(View::Experiments);
    else
        reportError(error);
    return true;
}

void MainWindow::openPath(const QString& path) {
    // A sweep, ladder or prune directory is a report, not a trace.
    if (openExperimentDirectory(path)) return;
    // Already open: show it again. Reading it anew would cost the load for the
    // same events; Close Document and open it to re-read a changed file.
    const int index = documents_->indexOf(documentPath(path));
    if (index < 0) {
        loader_->open(path);
        return;
    }
    documents_->select(index);
    const OpenedDocument& doc = documents_->at(index);
    showDocument(doc);
    showView(View::Overview);
    emit documentShown(doc);
}

void MainWindow::closeDocument() {
    documents_->closeCurrent();
}

void MainWindow::updateDiffDocuments() {
    std::vector<DiffDocument> list;
    for (int i = 0; i < documents_->count(); ++i)
        list.push_back(DiffDocument{documents_->at(i).title(), documents_->at(i).path,
                                    documents_->at(i).trace});
    diffView()->setDocuments(std::move(list));
}

void MainWindow::onOpened(const OpenedDocument& doc) {
    status_->loadIndicator()->finish(); // the next queued load shows it again
    if (doc.cancelled) {
        status_->showMessage(tr("Stopped opening %1").arg(doc.path), 5000);
    } else if (!doc.ok()) {
        reportError(doc.error);
    } else {
        settings_.addRecentFile(doc.path);
        rebuildRecentMenu();
        documents_->add(doc);
        updateDiffDocuments();
        showDocument(doc);
        // A rank folder is opened for its ranks, a run (data-parallel too) for its run.
        showView(doc.snapshot                  ? View::Snapshot
                 : doc.categories              ? View::MemoryCategories
                 : doc.distributed && !doc.run ? View::Distributed
                                               : View::Overview);
        status_->showMessage(tr("Opened %1").arg(doc.path), 5000);
    }
    emit documentShown(doc);
}

void MainWindow::showDocument(const OpenedDocument& doc) {
    setWindowTitle(tr("%1 — Trainscope").arg(doc.title()));
    if (doc.run) {
        liveView()->showRun(*doc.run);
        rooflineView()->setRunConfig(doc.run->info.config);
    }
    if (doc.trace) {
        const size_t lanes = doc.trace->lanes.size();
        showTrace(doc.trace,
                  tr("%1: %2 events on %3 (%4)")
                      .arg(doc.trace_path)
                      .arg(doc.trace->events.size())
                      .arg(lanes == 1 ? tr("1 lane") : tr("%1 lanes").arg(lanes))
                      .arg(QString::fromStdString(doc.trace->source)),
                  &doc);
    } else {
        const QString why =
            doc.trace_error.isEmpty() ? tr("this run was not profiled") : doc.trace_error;
        showTrace(nullptr, tr("No trace: %1").arg(why));
    }
    distributedView()->setSpans(doc.distributed, doc.path, doc.distributed_error);
    if (doc.snapshot)
        viewAs<SnapshotView>(View::Snapshot)->setSnapshot(doc.snapshot, doc.path);
    else
        viewAs<SnapshotView>(View::Snapshot)->clear();
    if (doc.categories)
        viewAs<CategoryTimelineView>(View::MemoryCategories)->setTimeline(doc.categories, doc.path);
    else
        viewAs<CategoryTimelineView>(View::MemoryCategories)->clear();
    showOverview(doc);
    offerViewsFor(&doc);
    showFormFor(doc.run.has_value());
}

void MainWindow::showNoDocument() {
    setWindowTitle(tr("Trainscope"));
    showTrace(nullptr, tr("No document open: File ▸ Open Trace or Open Run."));
    distributedView()->clear();
    overviewView()->clear();
    offerViewsFor(nullptr);
    showFormFor(true);
}

// The form takes a quarter of the window: out of the way while a trace is
// viewed, back for a run (and while one trains). View ▸ Experiment Panel
// brings it back at any time.
void MainWindow::showFormFor(bool run) {
    dock_->setVisible(run || controller_->isRunning() || experimentsView()->isRunning());
}

void MainWindow::showTrace(std::shared_ptr<const Trace> trace, const QString& description,
                           const OpenedDocument* views) {
    deferred_->setPending(nullptr, QString(), nullptr);
    if (!trace) {
        gpu_analysis_.reset();
        for (const ViewPage& page : viewPages())
            if (page.clear) page.clear(tabs_->view(page.id), description);
        return;
    }
    gpu_analysis_ = views && views->analysis()
                        ? views->analysis()
                        : std::make_shared<const GpuTraceAnalysis>(analyzeGpuTrace(*trace));
    if (views && views->deferred) { // a large trace: each view when it is shown
        const QString waiting = tr("%1\nThis view is analysed when it is first shown (a large "
                                   "trace opens with its Overview and Timeline).")
                                    .arg(description);
        for (const ViewPage& page : viewPages())
            if (page.showsAnalysis()) showAnalysisPending(page.id, waiting);
        deferred_->setPending(trace, description, views->deferred);
    } else {
        DeferredAnalysis all;
        all.full = gpu_analysis_;
        all.memory = views ? views->memory : nullptr;
        all.modules = views ? views->modules : nullptr;
        all.diagnoses = views ? views->diagnoses : nullptr;
        for (const ViewPage& page : viewPages())
            if (page.showsAnalysis()) fillAnalysedView(page.id, trace, description, all);
    }
    if (views && views->timeline_trace) {
        const Trace& ranks = *views->timeline_trace;
        timelineView()->setTrace(views->timeline_trace,
                                 tr("%1 one above the other: %2 events on %3 lanes")
                                     .arg(QString::fromStdString(ranks.source))
                                     .arg(ranks.events.size())
                                     .arg(ranks.lanes.size()),
                                 views->tracks);
    } else {
        timelineView()->setTrace(trace, description, views ? views->tracks : nullptr);
        if (views && views->diagnoses)
            timelineView()->timeline()->setDiagnoses(views->diagnoses, trace);
    }
    deferred_->viewShown(currentView());
}

void MainWindow::showAnalysisPending(View view, const QString& message) {
    const ViewPage& page = viewPage(view);
    if (page.pending) page.pending(tabs_->view(view), message);
}

// One view of the analysis; a large trace's Overview analysis is let go for
// the full one, which holds the Overview's too.
void MainWindow::fillAnalysedView(View view, const std::shared_ptr<const Trace>& trace,
                                  const QString& description, const DeferredAnalysis& all) {
    if (all.full) gpu_analysis_ = all.full;
    const ViewPage& page = viewPage(view);
    if (page.show) page.show(tabs_->view(view), ShownTrace{trace, description, all});
}

void MainWindow::diagnosesMade(const std::shared_ptr<const Trace>& trace,
                               const std::shared_ptr<const GpuDiagnoses>& diagnoses) {
    TimelineWidget* timeline = timelineView()->timeline();
    if (!diagnoses || timeline->diagnoses() == diagnoses.get()) return; // taken already
    timeline->setDiagnoses(diagnoses, trace);
    showDiagnosis(*trace, diagnoses.get());
}

void MainWindow::showDiagnosis(const Trace& trace, const GpuDiagnoses* diagnoses) {
    if (diagnoses)
        overviewView()->setDiagnosis(summarizeDiagnoses(trace, *diagnoses));
    else
        overviewView()->setDiagnosis(
            {}, tr("Made when a diagnosis view (GPU ▸ Temporal, Idle Time, Launches, …) is "
                   "first shown (a large trace opens with its Overview and Timeline)."));
}

void MainWindow::showOverview(const OpenedDocument& doc) {
    const bool trace_has_gpu =
        gpu_analysis_ && !gpu_analysis_->empty() && gpu_analysis_->overview.showsGpu();
    if (trace_has_gpu || !doc.run || doc.run->steps.empty()) {
        if (gpu_analysis_) {
            overviewView()->setContent(overviewOfTrace(*gpu_analysis_));
            const auto& diagnoses = doc.deferred ? doc.deferred->diagnoses : doc.diagnoses;
            if (doc.trace) showDiagnosis(*doc.trace, diagnoses.get());
            return;
        }
        if (!doc.run) {
            overviewView()->clear();
            return;
        }
    }
    overviewView()->setContent(overviewOfRun(*doc.run));
    overviewView()->setDiagnosis({});
}

void MainWindow::showView(View view) {
    tabs_->showView(view);
}

View MainWindow::currentView() const {
    return tabs_->currentView();
}

void MainWindow::offerViewsFor(const OpenedDocument* document) {
    for (const ViewPage& page : viewPages())
        tabs_->setOffered(page.id, page.appliesTo(document));
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
                        this, tr("Open a run directory or a folder of per-rank traces"), start)
                  : QFileDialog::getOpenFileName(
                        this, tr("Open a trace"), start,
                        tr("Chrome traces (*.json *.json.gz *.pt.trace.json);;All files (*)"));
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
        tr("<tr><td colspan=2><br><b>Timeline</b></td></tr>"
           "<tr><td><b>Wheel, W / S</b></td><td>zoom in / out</td></tr>"
           "<tr><td><b>Drag, A / D, ← / →</b></td><td>pan</td></tr>"
           "<tr><td><b>Shift+Wheel, ↑ / ↓</b></td><td>scroll lanes</td></tr>"
           "<tr><td><b>Click / F / 0</b></td><td>select / zoom to selection / show all</td></tr>"
           "<tr><td><b>Ctrl+F, Enter</b></td><td>search, next match</td></tr>"
           "<tr><td colspan=2><br><b>Live charts</b></td></tr>"
           "<tr><td><b>Wheel / drag / End</b></td><td>zoom / pan / follow the newest "
           "steps</td></tr></table>");
    QMessageBox::information(this, tr("Keyboard shortcuts"), html);
}

void MainWindow::restoreSession() {
    restoreGeometry(settings_.windowGeometry());
    restoreState(settings_.windowState());
    if (const auto view = viewFromName(settings_.currentView())) showView(*view);
    restoreExperiment(settings_, *form_);
}

void MainWindow::saveSession() {
    settings_.setWindowGeometry(saveGeometry());
    settings_.setWindowState(saveState());
    settings_.setCurrentView(viewName(currentView()));
    rememberExperiment(settings_, *form_);
    settings_.sync();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (controller_->isRunning() || experimentsView()->isRunning()) {
        const auto answer = QMessageBox::question(this, tr("Quit"),
                                                  tr("A run is in progress. Stop it and quit? "
                                                     "What was measured so far is kept."));
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return;
        }
        controller_->stop();
        experimentsView()->stop();
    }
    saveSession();
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
