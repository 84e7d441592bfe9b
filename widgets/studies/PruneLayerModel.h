#pragma once
// The Experiments view's pruning table, as `prune` prints it
// (experiments/StudyTables.h): one row per pruned layer (ts::LayerSparsity).
#include "analysis/PruneTypes.h"
#include "common/SpecRowsModel.h"

namespace ts::gui {

class PruneLayerTableModel : public SpecRowsModel<LayerSparsity> {
public:
    explicit PruneLayerTableModel(QObject* parent = nullptr);
};

} // namespace ts::gui
