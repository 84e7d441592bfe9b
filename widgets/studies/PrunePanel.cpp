#include "studies/PrunePanel.h"

#include <QDir>
#include <QTableView>

#include "common/SortFilterProxy.h"
#include "studies/PanelParts.h"
#include "studies/PruneChart.h"
#include "studies/PruneLayerModel.h"
#include "studies/PruneSummary.h"

namespace ts::gui {

PrunePanel::PrunePanel(QWidget* parent)
    : QWidget(parent), model_(new PruneLayerTableModel(this)), proxy_(new SortFilterProxy(this)),
      table_(makeExperimentTable(proxy_, model_)), chart_(new PruneChart) {
    layOutTableOverCharts(this, table_, chart_); // layers, not runs: nothing to double-click
}

void PrunePanel::showResult(const PruneStudyResult& result, const QString& dir) {
    result_ = result;
    dir_ = dir;
    model_->setRows(result_.layers);
    chart_->setResult(result_);
    table_->resizeColumnsToContents();
}

QString PrunePanel::title() const {
    return result_.layers.empty() ? tr("Pruning → %1").arg(QDir::toNativeSeparators(dir_))
                                  : pruneSummaryHtml(result_, dir_);
}

bool PrunePanel::exportPng(const QString& path, QString* error) {
    return saveChartPng(chart_, path, error);
}

} // namespace ts::gui
