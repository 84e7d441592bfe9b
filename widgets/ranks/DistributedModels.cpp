#include "ranks/DistributedModels.h"

namespace ts::gui {

RankTableModel::RankTableModel(QObject* parent) : SpecRowsModel<RankRow>(rankTable, parent) {}

CommOpModel::CommOpModel(QObject* parent) : SpecRowsModel<CommOpRow>(commOpTable, parent) {}

} // namespace ts::gui
