#pragma once
// The Distributed tab's tables on TableModel<Row>: one row per rank for the
// chosen step (or the average step), and the collectives of one rank (the
// plugin's "Communication Operations Stats"). Times in milliseconds per
// step for the ranks, microseconds for the collectives, as the plugin.
#include <QString>

#include "analysis/DistributedView.h"
#include "common/TableModel.h"

namespace ts::gui {

struct RankRow {
    int64_t rank = -1;
    QString worker, node, process, library, devices;
    DistributedStep step;
    size_t collectives = 0;
    bool straggler = false;
};

// The rows of `view` for step `label` ("all": the average); a rank without
// that step gets an empty one.
std::vector<RankRow> rankRows(const DistributedView& view, const std::string& label);

class RankTableModel : public TableModel<RankRow> {
public:
    enum Column {
        Rank,
        Worker,
        Node,
        Process,
        Device,
        Library,
        StepMs,
        ComputationMs,
        OverlappingMs,
        CommunicationMs,
        OtherMs,
        DataTransferMs,
        SynchronizingMs,
        Collectives,
        ColumnCount
    };
    explicit RankTableModel(QObject* parent = nullptr);
};

class CommOpModel : public TableModel<CommOpRow> {
public:
    enum Column {
        Name,
        Calls,
        TotalBytes,
        AvgBytes,
        TotalLatencyUs,
        AvgLatencyUs,
        DataTransferUs,
        AvgDataTransferUs,
        ColumnCount
    };
    explicit CommOpModel(QObject* parent = nullptr);
};

} // namespace ts::gui
