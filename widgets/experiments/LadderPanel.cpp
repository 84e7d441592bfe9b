#include "experiments/LadderPanel.h"

#include <QDir>
#include <QSplitter>
#include <QTableView>

#include "common/SortFilterProxy.h"
#include "experiments/ExperimentModels.h"
#include "experiments/LadderChart.h"
#include "experiments/PanelParts.h"
#include "experiments/PointLiveChart.h"

namespace ts::gui {

LadderPanel::LadderPanel(QWidget* parent)
    : QWidget(parent), model_(new LadderTableModel(this)), proxy_(new SortFilterProxy(this)),
      table_(makeExperimentTable(proxy_, model_)), chart_(new LadderChart),
      live_(new PointLiveChart) {
    table_->setToolTip(tr("Double-click a row to open its run"));
    live_->setToolTip(tr("The running rung, step by step"));
    live_->hide();
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(chart_);
    charts->addWidget(live_);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    layOutTableOverCharts(this, table_, charts);
    connect(table_, &QTableView::doubleClicked, this, &LadderPanel::openRow);
}

void LadderPanel::begin(const LadderSpec& spec, const QString& dir) {
    running_ = LadderResult();
    running_.spec = spec;
    running_dir_ = dir;
    showRunning();
    live_->reset();
}

void LadderPanel::addRung(const LadderRungUpdate& rung) {
    running_.rows.push_back(rung.row);
    running_.baseline_images_per_sec = rung.baseline_images_per_sec;
    running_.best_images_per_sec = rung.best_images_per_sec;
    if (!shows_running_) return showRunning();
    result_.rows.push_back(rung.row);
    result_.baseline_images_per_sec = rung.baseline_images_per_sec;
    result_.best_images_per_sec = rung.best_images_per_sec;
    model_->appendRows({rung.row});
    chart_->setResult(result_);
    table_->resizeColumnsToContents();
}

void LadderPanel::appendLive(const LiveUpdate& update) {
    if (shows_running_) live_->append(update);
}

void LadderPanel::showResult(const LadderResult& result, const QString& dir) {
    result_ = result;
    dir_ = dir;
    shows_running_ = false;
    live_->hide();
    refresh();
}

void LadderPanel::showRunning() {
    result_ = running_;
    dir_ = running_dir_;
    shows_running_ = true;
    live_->show();
    refresh();
}

void LadderPanel::refresh() {
    model_->setRows(result_.rows);
    chart_->setResult(result_);
    table_->resizeColumnsToContents();
}

QString LadderPanel::title() const {
    const LadderResult& r = result_;
    if (r.rows.empty()) return tr("Optimization ladder → %1").arg(QDir::toNativeSeparators(dir_));
    QString verdict;
    if (!r.baseline_failed() && r.baseline_images_per_sec > 0)
        verdict = tr(": best %1 images/s, %2× the baseline")
                      .arg(r.best_images_per_sec, 0, 'f', 1)
                      .arg(r.best_images_per_sec / r.baseline_images_per_sec, 0, 'f', 2);
    return tr("<b>Optimization ladder of %1</b>%2 — %3")
        .arg(QString::fromStdString(r.spec.base.name).toHtmlEscaped(), verdict,
             QDir::toNativeSeparators(dir_).toHtmlEscaped());
}

bool LadderPanel::exportPng(const QString& path, QString* error) {
    return saveChartPng(chart_, path, error);
}

void LadderPanel::openRow(const QModelIndex& index) {
    const int row = index.data(RowRole).toInt();
    const QString dir = pointRunDir(model_->rowAt(row).result.run_dir, dir_);
    if (!dir.isEmpty()) emit openRunRequested(dir);
}

} // namespace ts::gui
