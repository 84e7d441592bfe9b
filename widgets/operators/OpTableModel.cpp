#include "operators/OpTableModel.h"

#include "report/OpTables.h"

namespace ts::gui {

OpTableModel::OpTableModel(QObject* parent)
    : SpecRowsModel<OpStat>([](const std::vector<OpStat>& rows) { return opTableSpec({rows}); },
                            parent) {}

void OpTableModel::setTable(OpTable table) {
    total_self_cpu_ns_ = table.total_self_cpu_ns;
    total_self_device_ns_ = table.total_self_device_ns;
    const table::TableSpec spec = opTableSpec(table);
    setRowsWithSpec(std::move(table.rows), spec);
}

} // namespace ts::gui
