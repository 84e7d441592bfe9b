#pragma once
// The Experiments view's tables, as the CLI prints them
// (experiments/StudyTables.h): one row per sweep point (ts::SweepRow) and one
// per ladder rung (ts::RungRow); a point's or rung's run directory on the
// tooltip of its first column.
#include "common/SpecRowsModel.h"
#include "experiments/Ladder.h"
#include "experiments/Sweep.h"

namespace ts::gui {

class SweepTableModel : public SpecRowsModel<SweepRow> {
public:
    explicit SweepTableModel(QObject* parent = nullptr);

protected:
    QVariant toolTip(int row, int column) const override;
};

class LadderTableModel : public SpecRowsModel<RungRow> {
public:
    explicit LadderTableModel(QObject* parent = nullptr);

protected:
    QVariant toolTip(int row, int column) const override;
};

} // namespace ts::gui
