#include "runs/RunModels.h"

#include "runs/RunColumns.h"

namespace ts::gui {

namespace rc = run_columns;

// Column order = the enum's order.
RunListModel::RunListModel(QObject* parent)
    : TableModel<RunRow>({rc::name(), rc::status(), rc::modified(), rc::model(), rc::dataset(),
                          rc::device(), rc::precision(), rc::batchSize(), rc::epochs(), rc::steps(),
                          rc::imagesPerSec(), rc::epochTime(), rc::peakRss(), rc::valAccuracy(),
                          rc::hasTrace(), rc::directory()},
                         parent) {}

QVariant RunListModel::toolTip(const RunRow& row, int column) const {
    if (!row.error.isEmpty()) return row.error;
    if (column == Name) return row.dir;
    return TableModel<RunRow>::toolTip(row, column);
}

RunComparisonModel::RunComparisonModel(QObject* parent)
    : TableModel<RunRow>({rc::name(), rc::imagesPerSec(), rc::stepTime(), rc::epochTime(),
                          rc::totalTime(), rc::peakRss(), rc::peakTensors(), rc::peakDevice(),
                          rc::trainAccuracy(), rc::valAccuracy(), rc::model(), rc::device(),
                          rc::precision(), rc::batchSize(), rc::threads()},
                         parent) {}

} // namespace ts::gui
