#include "diff/DiffModels.h"

namespace ts::gui {

DiffCategoryModel::DiffCategoryModel(QObject* parent)
    : SpecRowsModel<DiffCategory>(
          [](const std::vector<DiffCategory>& rows) { return diffCategoryTable(rows); }, parent) {}

DiffRowModel::DiffRowModel(bool kernels, QObject* parent)
    : DiffRowModel(std::make_shared<DiffRowsOf>(DiffRowsOf{kernels}), parent) {}

DiffRowModel::DiffRowModel(std::shared_ptr<DiffRowsOf> of, QObject* parent)
    : SpecRowsModel<DiffRow>(
          [of](const std::vector<DiffRow>& rows) { return diffRowTable(rows, *of); }, parent),
      of_(std::move(of)) {}

void DiffRowModel::setRows(std::vector<DiffRow> rows, bool by_device) {
    of_->by_device = by_device;
    SpecRowsModel<DiffRow>::setRows(std::move(rows));
}

} // namespace ts::gui
