#include "studies/ExperimentModels.h"

#include "experiments/StudyTables.h"

namespace ts::gui {

SweepTableModel::SweepTableModel(QObject* parent)
    : SpecRowsModel<SweepRow>(sweepTableSpec, parent) {}

QVariant SweepTableModel::toolTip(int row, int column) const {
    if (column == this->column(sweep_column::kPoint))
        return QString::fromStdString(rowAt(row).result.run_dir.string());
    return SpecRowsModel<SweepRow>::toolTip(row, column);
}

LadderTableModel::LadderTableModel(QObject* parent)
    : SpecRowsModel<RungRow>(ladderTableSpec, parent) {}

QVariant LadderTableModel::toolTip(int row, int column) const {
    const RungRow& rung = rowAt(row);
    if (column == this->column(ladder_column::kRung) && !rung.result.run_dir.empty())
        return QString::fromStdString(rung.result.run_dir.string());
    return SpecRowsModel<RungRow>::toolTip(row, column);
}

} // namespace ts::gui
