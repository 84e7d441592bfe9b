#pragma once
// The Diff tab's tables on TableModel<Row>: the step's categories side by
// side, and the operators or kernels that changed, each with its status and
// its impact on the step (ordered by it, as TraceDiff gives them). Times in
// microseconds per step (or in total when a trace has no steps).
#include "analysis/TraceDiff.h"
#include "common/TableModel.h"

namespace ts::gui {

class DiffCategoryModel : public TableModel<DiffCategory> {
public:
    enum Column { Category, A, B, Delta, Change, ColumnCount };
    explicit DiffCategoryModel(QObject* parent = nullptr);
};

class DiffRowModel : public TableModel<DiffRow> {
public:
    enum Column {
        Name,
        Status,
        CallsA,
        CallsB,
        DeviceA,
        DeviceB,
        HostA,
        HostB,
        Impact,
        Change,
        ColumnCount
    };
    explicit DiffRowModel(QObject* parent = nullptr);
    // `by_device`: the impact is device time (Δ % follows it), else host time.
    void setRows(std::vector<DiffRow> rows, bool by_device);
    bool byDevice() const { return by_device_; }

private:
    bool by_device_ = true;
};

} // namespace ts::gui
