#pragma once
// The run list (all runs found) and the comparison table (the selected runs),
// as the core describes them (report/RunTables.h); `compare` prints the
// comparison from the same description.
#include "common/SpecRowsModel.h"
#include "runs/RunRow.h"

namespace ts::gui {

class RunListModel : public SpecRowsModel<RunRow> {
public:
    explicit RunListModel(QObject* parent = nullptr);

protected:
    // Why an unreadable run is unreadable; a run's directory on its name.
    QVariant toolTip(int row, int column) const override;
};

class RunComparisonModel : public SpecRowsModel<RunRow> {
public:
    explicit RunComparisonModel(QObject* parent = nullptr);
};

} // namespace ts::gui
