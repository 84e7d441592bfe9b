#include "studies/ExperimentsView.h"

#include <filesystem>

#include <QDir>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "common/AppSettings.h"
#include "common/ExportFile.h"
#include "experiments/ReportReader.h"
#include "form/ExperimentForm.h"
#include "studies/ExperimentControls.h"
#include "studies/LadderPanel.h"
#include "studies/PrunePanel.h"
#include "studies/SweepPanel.h"
#include "training/RunController.h"

namespace ts::gui {

ExperimentsView::ExperimentsView(AppSettings& settings, const ExperimentForm& form,
                                 RunController& runs, QWidget* parent)
    : QWidget(parent), settings_(settings), form_(form), runs_(runs), job_(new ExperimentJob(this)),
      prune_job_(new PruneJob(this)), controls_(new ExperimentControls), sweep_(new SweepPanel),
      ladder_(new LadderPanel), prune_(new PrunePanel), panels_(new QStackedWidget),
      title_(new QLabel) {
    controls_->setRequest(requestFromJson(settings_.lastExperimentRequestJson()));
    panels_->addWidget(sweep_);
    panels_->addWidget(ladder_);
    panels_->addWidget(prune_);
    title_->setWordWrap(true);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title_->setText(tr("No sweep or ladder yet: choose the key and values and press Start to "
                       "measure the experiment in the form, or open a directory written by "
                       "trainscope-cli sweep / ladder / prune."));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(controls_);
    layout->addWidget(title_);
    layout->addWidget(panels_, 1);

    connect(controls_, &ExperimentControls::startClicked, this, [this] { start(); });
    connect(controls_, &ExperimentControls::stopClicked, this, &ExperimentsView::stop);
    connect(controls_, &ExperimentControls::openClicked, this, &ExperimentsView::openInteractive);
    connect(controls_, &ExperimentControls::exportClicked, this,
            &ExperimentsView::exportInteractive);
    connect(job_, &ExperimentJob::sweepProgress, this, &ExperimentsView::onSweepRow);
    connect(job_, &ExperimentJob::ladderProgress, this, &ExperimentsView::onLadderRung);
    connect(job_, &ExperimentJob::liveUpdated, this, &ExperimentsView::onLiveUpdate);
    connect(job_, &ExperimentJob::finished, this, &ExperimentsView::onFinished);
    connect(job_, &ExperimentJob::stopping, this, &ExperimentsView::updateProgress);
    connect(prune_job_, &PruneJob::finished, this, &ExperimentsView::onPruneFinished);
    connect(sweep_, &SweepPanel::openRunRequested, this, &ExperimentsView::openRunRequested);
    connect(ladder_, &LadderPanel::openRunRequested, this, &ExperimentsView::openRunRequested);
    connect(&runs_, &RunController::runStarted, this, &ExperimentsView::updateStartBlocked);
    connect(&runs_, &RunController::runFinished, this, &ExperimentsView::updateStartBlocked);
    connect(&form_, &ExperimentForm::issuesChanged, this, &ExperimentsView::updateStartBlocked);
    updateStartBlocked();
}

SweepTableModel* ExperimentsView::sweepModel() const {
    return sweep_->model();
}
LadderTableModel* ExperimentsView::ladderModel() const {
    return ladder_->model();
}
PruneLayerTableModel* ExperimentsView::pruneModel() const {
    return prune_->model();
}
SweepCharts* ExperimentsView::sweepCharts() const {
    return sweep_->charts();
}
LadderChart* ExperimentsView::ladderChart() const {
    return ladder_->chart();
}
PruneChart* ExperimentsView::pruneChart() const {
    return prune_->chart();
}

QTableView* ExperimentsView::table() const {
    switch (showing_) {
    case ExperimentMode::Sweep:
        return sweep_->table();
    case ExperimentMode::Ladder:
        return ladder_->table();
    case ExperimentMode::Prune:
        break;
    }
    return prune_->table();
}

QString ExperimentsView::shownDirectory() const {
    switch (showing_) {
    case ExperimentMode::Sweep:
        return sweep_->directory();
    case ExperimentMode::Ladder:
        return ladder_->directory();
    case ExperimentMode::Prune:
        break;
    }
    return prune_->directory();
}

bool ExperimentsView::isRunning() const {
    return job_->isRunning() || prune_job_->isRunning();
}

QString ExperimentsView::summaryText() const {
    return title_->text();
}

bool ExperimentsView::start(QString* error) {
    QString why;
    const ExperimentRequest request = controls_->request();
    settings_.setLastExperimentRequestJson(requestToJson(request)); // even if it cannot start
    const bool prune = request.mode == ExperimentMode::Prune;
    if (runs_.isRunning())
        why = tr("A run is in progress; stop it before starting a sweep or ladder.");
    else if (isRunning())
        why = tr("A sweep, ladder or pruning study is already running.");
    else if (!form_.isValid())
        why = tr("Fix the highlighted fields of the experiment first.");
    else if (prune ? prune_job_->start(request, form_.config(), runs_.runsRoot(), &why)
                   : job_->start(request, form_.config(), runs_.runsRoot(), &why))
        why.clear();
    else if (why.isEmpty())
        why = tr("The experiment could not start.");
    if (!why.isEmpty()) {
        controls_->setStatus(tr("Not started: %1").arg(why));
        if (error) *error = why;
        return false;
    }
    rows_done_ = 0;
    if (prune) {
        showPrune(PruneStudyResult(), prune_job_->outputDir());
        controls_->setRunning(true);
        controls_->setStatus(tr("Pruning: evaluating and timing the weights before and after "
                                "— writing to %1")
                                 .arg(QDir::toNativeSeparators(prune_job_->outputDir())));
        emit runningChanged(true);
        return true;
    }
    if (request.mode == ExperimentMode::Sweep)
        sweep_->begin(job_->sweepSpec(), job_->outputDir());
    else
        ladder_->begin(job_->ladderSpec(), job_->outputDir());
    showMode(request.mode);
    controls_->setRunning(true);
    updateProgress();
    emit runningChanged(true);
    return true;
}

void ExperimentsView::stop() {
    job_->stop();
}

void ExperimentsView::onSweepRow(const SweepRow& row) {
    ++rows_done_;
    sweep_->addRow(row);
    showMode(ExperimentMode::Sweep); // also after another directory was opened meanwhile
    updateProgress();
}

void ExperimentsView::onLadderRung(const LadderRungUpdate& rung) {
    ++rows_done_;
    ladder_->addRung(rung);
    showMode(ExperimentMode::Ladder);
    updateProgress();
}

// At most once per tick: the running point's steps and the status line.
void ExperimentsView::onLiveUpdate(const LiveUpdate& update) {
    if (job_->mode() == ExperimentMode::Sweep)
        sweep_->appendLive(update);
    else
        ladder_->appendLive(update);
    updateProgress();
}

void ExperimentsView::updateStartBlocked() {
    controls_->setStartBlocked(runs_.isRunning() ? tr("A run is in progress; stop it first.")
                               : !form_.isValid()
                                   ? tr("Fix the highlighted fields of the experiment first.")
                                   : QString());
}

void ExperimentsView::updateProgress() {
    if (!job_->isRunning()) return;
    const int planned = job_->plannedCount();
    const int current = qMin(rows_done_, planned - 1);
    const QString what = job_->mode() == ExperimentMode::Sweep ? tr("Point") : tr("Rung");
    QString text = tr("%1 %2 of %3 (%4): step %5 of %6 — writing to %7")
                       .arg(what)
                       .arg(current + 1)
                       .arg(planned)
                       .arg(job_->plannedLabel(current))
                       .arg(job_->currentStep())
                       .arg(job_->stepsPerPoint())
                       .arg(QDir::toNativeSeparators(job_->outputDir()));
    if (job_->stopRequested()) text = tr("Stopping after the current step … ") + text;
    controls_->setStatus(text);
}

void ExperimentsView::onFinished(const ExperimentOutcome& outcome) {
    controls_->setRunning(false);
    updateStartBlocked();
    const QString what = outcome.mode == ExperimentMode::Sweep ? tr("sweep") : tr("ladder");
    const QString dir = QDir::toNativeSeparators(outcome.dir);
    if (!outcome.error.isEmpty())
        controls_->setStatus(tr("The %1 failed: %2").arg(what, outcome.error));
    else if (outcome.cancelled)
        controls_->setStatus(tr("Stopped: %1 measured; the rest is recorded as cancelled. "
                                "Report in %2")
                                 .arg(outcome.completed)
                                 .arg(dir));
    else
        controls_->setStatus(tr("The %1 finished: %2 measured. Report in %3")
                                 .arg(what)
                                 .arg(outcome.completed)
                                 .arg(dir));
    emit runningChanged(false);
    emit experimentFinished(outcome);
}

void ExperimentsView::onPruneFinished(const PruneOutcome& outcome) {
    controls_->setRunning(false);
    updateStartBlocked();
    const QString dir = QDir::toNativeSeparators(outcome.dir);
    if (!outcome.error.isEmpty()) {
        controls_->setStatus(tr("The pruning study failed: %1").arg(outcome.error));
        title_->setText(tr("Pruning failed — %1").arg(dir.toHtmlEscaped()));
    } else {
        showPrune(outcome.result, outcome.dir);
        controls_->setStatus(
            tr("The pruning study finished. Report and pruned weights in %1").arg(dir));
    }
    emit runningChanged(false);
    emit experimentFinished(ExperimentOutcome{ExperimentMode::Prune, outcome.dir, outcome.error,
                                              false, outcome.error.isEmpty() ? 1 : 0});
}

void ExperimentsView::showMode(ExperimentMode mode) {
    showing_ = mode;
    panels_->setCurrentIndex(int(mode));
    updateTitle();
}

void ExperimentsView::updateTitle() {
    switch (showing_) {
    case ExperimentMode::Sweep:
        title_->setText(sweep_->title());
        return;
    case ExperimentMode::Ladder:
        title_->setText(ladder_->title());
        return;
    case ExperimentMode::Prune:
        title_->setText(prune_->title());
        return;
    }
}

void ExperimentsView::showSweep(const SweepResult& result, const QString& dir) {
    sweep_->showResult(result, dir);
    showMode(ExperimentMode::Sweep);
}

void ExperimentsView::showLadder(const LadderResult& result, const QString& dir) {
    ladder_->showResult(result, dir);
    showMode(ExperimentMode::Ladder);
}

void ExperimentsView::showPrune(const PruneStudyResult& result, const QString& dir) {
    prune_->showResult(result, dir);
    showMode(ExperimentMode::Prune);
}

bool ExperimentsView::openDirectory(const QString& dir, QString* error) {
    try {
        showReport(readExperimentReport(dir.toStdString()), dir);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
    }
    return false;
}

void ExperimentsView::showReport(const ExperimentReport& report, const QString& dir) {
    switch (report.kind) {
    case ReportKind::Sweep:
        return showSweep(report.sweep, dir);
    case ReportKind::Ladder:
        return showLadder(report.ladder, dir);
    case ReportKind::Prune:
        return showPrune(report.prune, dir);
    case ReportKind::None:
        break;
    }
}

bool ExperimentsView::exportPng(const QString& path, QString* error) {
    switch (showing_) {
    case ExperimentMode::Sweep:
        return sweep_->exportPng(path, error);
    case ExperimentMode::Ladder:
        return ladder_->exportPng(path, error);
    case ExperimentMode::Prune:
        break;
    }
    return prune_->exportPng(path, error);
}

void ExperimentsView::openInteractive() {
    const QString dir =
        chooseFolderInteractive(this, settings_, tr("Open a sweep, ladder or prune directory"),
                                settings_.lastBrowseDir().isEmpty() ? runs_.runsRoot() : QString());
    QString error;
    if (!dir.isEmpty() && !openDirectory(dir, &error)) warnFailure(this, tr("Open"), error);
}

void ExperimentsView::exportInteractive() {
    const QString name = showing_ == ExperimentMode::Sweep    ? QStringLiteral("sweep.png")
                         : showing_ == ExperimentMode::Ladder ? QStringLiteral("ladder.png")
                                                              : QStringLiteral("prune.png");
    // Starts beside the shown report, where the CLI's own PNGs are.
    exportFileInteractive(
        this, settings_, tr("Export the charts as PNG"), name, tr("PNG images (*.png)"),
        [this](const QString& path, QString* error) { return exportPng(path, error); },
        shownDirectory());
}

} // namespace ts::gui
