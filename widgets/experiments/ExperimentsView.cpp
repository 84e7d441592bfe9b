#include "experiments/ExperimentsView.h"

#include <filesystem>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "common/AppSettings.h"
#include "common/SortFilterProxy.h"
#include "experiments/ExperimentControls.h"
#include "experiments/ExperimentModels.h"
#include "experiments/LadderChart.h"
#include "experiments/PruneChart.h"
#include "experiments/PruneLayerModel.h"
#include "experiments/PruneSummary.h"
#include "experiments/ReportReader.h"
#include "experiments/SweepCharts.h"
#include "form/ExperimentForm.h"
#include "report/ChartRenderer.h"
#include "report/RunDirectory.h"
#include "training/RunController.h"

namespace ts::gui {
namespace {

constexpr int kProgressMs = 250;

QString keysOf(const SweepResult& r) {
    QStringList keys;
    for (const SweepAxis& axis : r.spec.axes)
        keys << QString::fromStdString(axis.key);
    return keys.join(QStringLiteral(" × "));
}

} // namespace

ExperimentsView::ExperimentsView(AppSettings& settings, const ExperimentForm& form,
                                 RunController& runs, QWidget* parent)
    : QWidget(parent), settings_(settings), form_(form), runs_(runs), job_(new ExperimentJob(this)),
      prune_job_(new PruneJob(this)), controls_(new ExperimentControls),
      sweep_model_(new SweepTableModel(this)), ladder_model_(new LadderTableModel(this)),
      prune_model_(new PruneLayerTableModel(this)), proxy_(new SortFilterProxy(this)),
      table_(new QTableView), charts_(new QStackedWidget), sweep_charts_(new SweepCharts),
      ladder_chart_(new LadderChart), prune_chart_(new PruneChart), title_(new QLabel) {
    controls_->setRequest(requestFromJson(settings_.lastExperimentRequestJson()));
    proxy_->setSourceModel(sweep_model_);
    table_->setModel(proxy_);
    table_->setObjectName(QStringLiteral("experimentTable"));
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder); // run order until the user sorts
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setToolTip(tr("Double-click a row to open its run"));
    charts_->addWidget(sweep_charts_);
    charts_->addWidget(ladder_chart_);
    charts_->addWidget(prune_chart_);
    title_->setWordWrap(true);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title_->setText(tr("No sweep or ladder yet: choose the key and values and press Start to "
                       "measure the experiment in the form, or open a directory written by "
                       "trainscope-cli sweep / ladder / prune."));

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(table_);
    split->addWidget(charts_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 5);
    split->setSizes({220, 550});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(controls_);
    layout->addWidget(title_);
    layout->addWidget(split, 1);

    progress_timer_.setInterval(kProgressMs);
    connect(&progress_timer_, &QTimer::timeout, this, &ExperimentsView::updateProgress);
    connect(controls_, &ExperimentControls::startClicked, this, [this] { start(); });
    connect(controls_, &ExperimentControls::stopClicked, this, &ExperimentsView::stop);
    connect(controls_, &ExperimentControls::openClicked, this, &ExperimentsView::openInteractive);
    connect(controls_, &ExperimentControls::exportClicked, this,
            &ExperimentsView::exportInteractive);
    connect(job_, &ExperimentJob::sweepProgress, this, [this](const SweepResult& so_far) {
        rows_done_ = int(so_far.rows.size());
        showSweep(so_far, job_->outputDir());
        updateProgress();
    });
    connect(job_, &ExperimentJob::ladderProgress, this, [this](const LadderResult& so_far) {
        rows_done_ = int(so_far.rows.size());
        showLadder(so_far, job_->outputDir());
        updateProgress();
    });
    connect(job_, &ExperimentJob::finished, this, &ExperimentsView::onFinished);
    connect(prune_job_, &PruneJob::finished, this, &ExperimentsView::onPruneFinished);
    connect(job_, &ExperimentJob::stopping, this, &ExperimentsView::updateProgress);
    connect(&runs_, &RunController::runStarted, this, &ExperimentsView::updateStartBlocked);
    connect(&runs_, &RunController::runFinished, this, &ExperimentsView::updateStartBlocked);
    connect(&form_, &ExperimentForm::issuesChanged, this, &ExperimentsView::updateStartBlocked);
    connect(table_, &QTableView::doubleClicked, this, &ExperimentsView::openRowRunDir);
    updateStartBlocked();
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
        showSweep(SweepResult(), job_->outputDir());
    else
        showLadder(LadderResult(), job_->outputDir());
    controls_->setRunning(true);
    progress_timer_.start();
    updateProgress();
    emit runningChanged(true);
    return true;
}

void ExperimentsView::stop() {
    job_->stop();
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
    progress_timer_.stop();
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
    QAbstractItemModel* model =
        mode == ExperimentMode::Sweep    ? static_cast<QAbstractItemModel*>(sweep_model_)
        : mode == ExperimentMode::Ladder ? static_cast<QAbstractItemModel*>(ladder_model_)
                                         : static_cast<QAbstractItemModel*>(prune_model_);
    if (proxy_->sourceModel() != model) {
        proxy_->setSourceModel(model);
        table_->sortByColumn(-1, Qt::AscendingOrder);
    }
    table_->setToolTip(mode == ExperimentMode::Prune ? QString()
                                                     : tr("Double-click a row to open its run"));
    charts_->setCurrentIndex(int(mode));
}

void ExperimentsView::showSweep(const SweepResult& r, const QString& dir) {
    showMode(ExperimentMode::Sweep);
    shown_dir_ = dir;
    sweep_model_->setRows(r.rows);
    sweep_charts_->setResult(r);
    title_->setText(r.rows.empty()
                        ? tr("Sweep → %1").arg(QDir::toNativeSeparators(dir))
                        : tr("<b>Sweep of %1</b> over %2: %3 of %4 points completed — %5")
                              .arg(QString::fromStdString(r.spec.base.name).toHtmlEscaped(),
                                   keysOf(r).toHtmlEscaped())
                              .arg(r.completed())
                              .arg(r.rows.size())
                              .arg(QDir::toNativeSeparators(dir).toHtmlEscaped()));
    table_->resizeColumnsToContents();
}

void ExperimentsView::showLadder(const LadderResult& r, const QString& dir) {
    showMode(ExperimentMode::Ladder);
    shown_dir_ = dir;
    ladder_model_->setRows(r.rows);
    ladder_chart_->setResult(r);
    QString verdict;
    if (!r.rows.empty() && !r.baseline_failed() && r.baseline_images_per_sec > 0)
        verdict = tr(": best %1 images/s, %2× the baseline")
                      .arg(r.best_images_per_sec, 0, 'f', 1)
                      .arg(r.best_images_per_sec / r.baseline_images_per_sec, 0, 'f', 2);
    title_->setText(r.rows.empty()
                        ? tr("Optimization ladder → %1").arg(QDir::toNativeSeparators(dir))
                        : tr("<b>Optimization ladder of %1</b>%2 — %3")
                              .arg(QString::fromStdString(r.spec.base.name).toHtmlEscaped(),
                                   verdict, QDir::toNativeSeparators(dir).toHtmlEscaped()));
    table_->resizeColumnsToContents();
}

void ExperimentsView::showPrune(const PruneStudyResult& r, const QString& dir) {
    showMode(ExperimentMode::Prune);
    shown_dir_ = dir;
    prune_model_->setRows(r.layers);
    prune_chart_->setResult(r);
    title_->setText(r.layers.empty() ? tr("Pruning → %1").arg(QDir::toNativeSeparators(dir))
                                     : pruneSummaryHtml(r, dir));
    table_->resizeColumnsToContents();
}

bool ExperimentsView::openDirectory(const QString& dir, QString* error) {
    const std::filesystem::path path = dir.toStdString();
    try {
        switch (reportKind(path)) {
        case ReportKind::Sweep:
            showSweep(readSweepReport(path), dir);
            return true;
        case ReportKind::Ladder:
            showLadder(readLadderReport(path), dir);
            return true;
        case ReportKind::Prune:
            showPrune(readPruneReport(path), dir);
            return true;
        case ReportKind::None:
            break;
        }
        if (error)
            *error = tr("%1 holds no sweep.csv, ladder.csv or prune.json: choose the "
                        "directory trainscope-cli sweep, ladder or prune wrote (--out).")
                         .arg(QDir::toNativeSeparators(dir));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
    }
    return false;
}

bool ExperimentsView::exportPng(const QString& path, QString* error) {
    // The size and pixel ratio of the report's charts, so that both look alike;
    // the sweep's two panels side by side get twice the width.
    auto* plot = qobject_cast<QCustomPlot*>(charts_->currentWidget());
    const int width = plot == sweep_charts_ ? 2 * kChartWidth : kChartWidth;
    if (plot && plot->savePng(path, width, kChartHeight, kChartPixelRatio)) return true;
    if (error) *error = tr("Cannot write %1.").arg(path);
    return false;
}

void ExperimentsView::openInteractive() {
    const QString start =
        settings_.lastBrowseDir().isEmpty() ? runs_.runsRoot() : settings_.lastBrowseDir();
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Open a sweep, ladder or prune directory"), start);
    if (dir.isEmpty()) return;
    settings_.setLastBrowseDir(QFileInfo(dir).absolutePath());
    QString error;
    if (!openDirectory(dir, &error)) QMessageBox::warning(this, tr("Open"), error);
}

void ExperimentsView::exportInteractive() {
    const QString name = showing_ == ExperimentMode::Sweep    ? QStringLiteral("sweep.png")
                         : showing_ == ExperimentMode::Ladder ? QStringLiteral("ladder.png")
                                                              : QStringLiteral("prune.png");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the charts as PNG"),
        QDir(shown_dir_.isEmpty() ? settings_.lastBrowseDir() : shown_dir_).filePath(name),
        tr("PNG images (*.png)"));
    QString error;
    if (!path.isEmpty() && !exportPng(path, &error))
        QMessageBox::warning(this, tr("Export PNG"), error);
}

void ExperimentsView::openRowRunDir(const QModelIndex& index) {
    if (showing_ == ExperimentMode::Prune) return; // layers, not runs
    const int row = index.data(RowRole).toInt();
    std::filesystem::path dir = showing_ == ExperimentMode::Sweep
                                    ? sweep_model_->rowAt(row).result.run_dir
                                    : ladder_model_->rowAt(row).result.run_dir;
    std::error_code ignored;
    // The CLI records run_dir relative to where it ran; the point sits in the shown directory.
    if (!dir.empty() && !std::filesystem::exists(dir / run_files::kRunJson, ignored))
        dir = std::filesystem::path(shown_dir_.toStdString()) / dir.filename();
    if (!dir.empty() && std::filesystem::exists(dir / run_files::kRunJson, ignored))
        emit openRunRequested(QString::fromStdString(dir.string()));
}

} // namespace ts::gui
