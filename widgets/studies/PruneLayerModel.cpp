#include "studies/PruneLayerModel.h"

#include "experiments/StudyTables.h"

namespace ts::gui {

PruneLayerTableModel::PruneLayerTableModel(QObject* parent)
    : SpecRowsModel<LayerSparsity>(pruneLayerTableSpec, parent) {}

} // namespace ts::gui
