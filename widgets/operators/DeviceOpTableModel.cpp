#include "operators/DeviceOpTableModel.h"

#include "report/GpuTables.h"

namespace ts::gui {

DeviceOpTableModel::DeviceOpTableModel(QObject* parent) : SpecTableModel(parent) {
    setTable({});
}

void DeviceOpTableModel::setTable(DeviceOpTable table) {
    by_device_ = table.by_device; // before the reset, so its listeners see it
    const table::TableSpec spec = deviceOpTableSpec(table);
    rows_ = std::move(table.rows);
    setSpec(spec, true);
}

int DeviceOpTableModel::defaultSortColumn() const {
    return column(by_device_ ? device_op_column::kDeviceSelfUs : device_op_column::kHostSelfUs);
}

// A call stack reads better one frame a line than as Kineto's ';'-joined text.
QVariant DeviceOpTableModel::toolTip(int row, int column) const {
    if (column == this->column(device_op_column::kCallStack))
        return QString::fromStdString(rowAt(row).call_stack)
            .split(QLatin1Char(';'))
            .join(QLatin1Char('\n'));
    return SpecTableModel::toolTip(row, column);
}

} // namespace ts::gui
