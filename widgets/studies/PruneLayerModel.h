#pragma once
// The Experiments view's pruning table: one row per pruned layer
// (ts::LayerSparsity), counts and sparsity raw on SortRole.
#include "analysis/PruneTypes.h"
#include "common/TableModel.h"

namespace ts::gui {

class PruneLayerTableModel : public TableModel<LayerSparsity> {
public:
    enum Column {
        Layer,
        Shape,
        Parameters,
        ZerosBefore,
        ZerosAfter,
        SparsityBefore,
        SparsityAfter,
        ZeroChannels,
        ColumnCount
    };
    explicit PruneLayerTableModel(QObject* parent = nullptr);
};

// "layer1.0.conv1" for "layer1.0.conv1.weight".
QString layerLabel(const LayerSparsity& layer);

} // namespace ts::gui
