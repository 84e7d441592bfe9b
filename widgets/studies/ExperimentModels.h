#pragma once
// The Experiments view's tables: one row per sweep point (ts::SweepRow) and
// one per ladder rung (ts::RungRow), numbers raw on SortRole.
#include "common/TableModel.h"
#include "experiments/Ladder.h"
#include "experiments/Sweep.h"

namespace ts::gui {

class SweepTableModel : public TableModel<SweepRow> {
public:
    enum Column {
        Point,
        Values,
        Status,
        ImagesPerSec,
        VersusBest,
        StepTime,
        DataTime,
        Memory,
        Predicted,
        Note,
        ColumnCount
    };
    explicit SweepTableModel(QObject* parent = nullptr);

protected:
    QVariant toolTip(const SweepRow& row, int column) const override;
};

class LadderTableModel : public TableModel<RungRow> {
public:
    enum Column {
        Rung,
        Change,
        Status,
        ImagesPerSec,
        Speedup,
        Gain,
        StepTime,
        Memory,
        Accuracy,
        Kept,
        Decision,
        ColumnCount
    };
    explicit LadderTableModel(QObject* parent = nullptr);

protected:
    QVariant toolTip(const RungRow& row, int column) const override;
};

// "ok", "failed", "oom", "skipped", or "cancelled" for points the user stopped.
QString outcomeText(const PointResult& result);

} // namespace ts::gui
