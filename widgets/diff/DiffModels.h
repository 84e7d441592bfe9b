#pragma once
// The Diff tab's tables, as `trace-diff` prints them (report/DiffTables.h):
// the step's categories side by side, and the operators or kernels that
// changed, each with its status and its impact on the step (ordered by it,
// as TraceDiff gives them). Times in microseconds per step (or in total when
// a trace has no steps).
#include <memory>

#include "analysis/TraceDiff.h"
#include "common/SpecRowsModel.h"
#include "report/DiffTables.h"

namespace ts::gui {

class DiffCategoryModel : public SpecRowsModel<DiffCategory> {
public:
    explicit DiffCategoryModel(QObject* parent = nullptr);
};

class DiffRowModel : public SpecRowsModel<DiffRow> {
public:
    // `kernels`: the rows are kernels, which have no host time.
    explicit DiffRowModel(bool kernels, QObject* parent = nullptr);
    // `by_device`: the impact is device time (Change follows it), else host time.
    void setRows(std::vector<DiffRow> rows, bool by_device);
    bool byDevice() const { return of_->by_device; }

private:
    // Shared with the table's builder, which the base class calls first.
    DiffRowModel(std::shared_ptr<DiffRowsOf> of, QObject* parent);
    std::shared_ptr<DiffRowsOf> of_;
};

} // namespace ts::gui
