#include "experiments/SweepPanel.h"

#include <algorithm>

#include <QDir>
#include <QSplitter>
#include <QStringList>
#include <QTableView>

#include "common/SortFilterProxy.h"
#include "experiments/ExperimentModels.h"
#include "experiments/PanelParts.h"
#include "experiments/PointLiveChart.h"
#include "experiments/SweepCharts.h"

namespace ts::gui {
namespace {

QString keysOf(const SweepResult& r) {
    QStringList keys;
    for (const SweepAxis& axis : r.spec.axes)
        keys << QString::fromStdString(axis.key);
    return keys.join(QStringLiteral(" × "));
}

} // namespace

SweepPanel::SweepPanel(QWidget* parent)
    : QWidget(parent), model_(new SweepTableModel(this)), proxy_(new SortFilterProxy(this)),
      table_(makeExperimentTable(proxy_, model_)), charts_(new SweepCharts),
      live_(new PointLiveChart) {
    table_->setToolTip(tr("Double-click a row to open its run"));
    live_->setToolTip(tr("The running point, step by step"));
    live_->hide();
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(charts_);
    charts->addWidget(live_);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    layOutTableOverCharts(this, table_, charts);
    connect(table_, &QTableView::doubleClicked, this, &SweepPanel::openRow);
}

void SweepPanel::begin(const SweepSpec& spec, const QString& dir) {
    running_ = SweepResult();
    running_.spec = spec;
    running_dir_ = dir;
    showRunning();
    live_->reset();
}

void SweepPanel::addRow(const SweepRow& row) {
    // Later rounds come back with the same point: replace it.
    const auto same = [&row](const SweepRow& r) { return r.point.index == row.point.index; };
    const auto known = std::find_if(running_.rows.begin(), running_.rows.end(), same);
    if (known != running_.rows.end()) {
        *known = row;
        running_.rounds = std::max(running_.rounds, int(row.round_images_per_sec.size()));
    } else {
        running_.rows.push_back(row);
    }
    if (!shows_running_) return showRunning();
    result_ = running_;
    if (known != running_.rows.end())
        model_->setRows(result_.rows);
    else
        model_->appendRows({row});
    charts_->setResult(result_);
    table_->resizeColumnsToContents();
}

void SweepPanel::appendLive(const LiveUpdate& update) {
    if (shows_running_) live_->append(update);
}

void SweepPanel::showResult(const SweepResult& result, const QString& dir) {
    result_ = result;
    dir_ = dir;
    shows_running_ = false;
    live_->hide();
    refresh();
}

void SweepPanel::showRunning() {
    result_ = running_;
    dir_ = running_dir_;
    shows_running_ = true;
    live_->show();
    refresh();
}

void SweepPanel::refresh() {
    model_->setRows(result_.rows);
    charts_->setResult(result_);
    table_->resizeColumnsToContents();
}

QString SweepPanel::title() const {
    const SweepResult& r = result_;
    if (r.rows.empty()) return tr("Sweep → %1").arg(QDir::toNativeSeparators(dir_));
    return tr("<b>Sweep of %1</b> over %2: %3 of %4 points completed — %5")
        .arg(QString::fromStdString(r.spec.base.name).toHtmlEscaped(), keysOf(r).toHtmlEscaped())
        .arg(r.completed())
        .arg(r.rows.size())
        .arg(QDir::toNativeSeparators(dir_).toHtmlEscaped());
}

bool SweepPanel::exportPng(const QString& path, QString* error) {
    return saveChartPng(charts_, path, error, 2); // throughput and memory side by side
}

void SweepPanel::openRow(const QModelIndex& index) {
    const int row = index.data(RowRole).toInt();
    const QString dir = pointRunDir(model_->rowAt(row).result.run_dir, dir_);
    if (!dir.isEmpty()) emit openRunRequested(dir);
}

} // namespace ts::gui
