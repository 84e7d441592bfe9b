#pragma once
// The Distributed tab's tables, as the CLI prints them
// (report/DistributedTables.h): one row per rank for the chosen step (or the
// average step), and the collectives of one rank (the plugin's
// "Communication Operations Stats"). Times in microseconds, as the plugin.
#include "analysis/DistributedView.h"
#include "common/SpecRowsModel.h"
#include "report/DistributedTables.h"

namespace ts::gui {

class RankTableModel : public SpecRowsModel<RankRow> {
public:
    explicit RankTableModel(QObject* parent = nullptr);
};

class CommOpModel : public SpecRowsModel<CommOpRow> {
public:
    explicit CommOpModel(QObject* parent = nullptr);
};

} // namespace ts::gui
