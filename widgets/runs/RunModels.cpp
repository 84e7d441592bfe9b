#include "runs/RunModels.h"

namespace ts::gui {

RunListModel::RunListModel(QObject* parent) : SpecRowsModel<RunRow>(runListTable, parent) {}

QVariant RunListModel::toolTip(int row, int column) const {
    const RunRow& run = rowAt(row);
    if (!run.error.empty()) return QString::fromStdString(run.error);
    if (column == this->column(run_column::kName)) return QString::fromStdString(run.dir);
    return SpecRowsModel<RunRow>::toolTip(row, column);
}

RunComparisonModel::RunComparisonModel(QObject* parent)
    : SpecRowsModel<RunRow>(runComparisonTable, parent) {}

} // namespace ts::gui
