#include "operators/DeviceOpTableModel.h"

#include <QCoreApplication>

namespace ts::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("DeviceOpTableModel", text);
}

QVariant text(const std::string& s) {
    return QVariant(QString::fromStdString(s));
}

// A time column: sorts and charts on microseconds, shows them as the
// Kernels tab does.
TableColumn<DeviceOpRow> microseconds(const QString& header, const QString& tooltip,
                                      int64_t DeviceOpRow::*field) {
    return {header, tooltip,
            [field](const DeviceOpRow& r) { return QVariant(double(r.*field) / 1000.0); },
            [field](const DeviceOpRow& r) {
                const double us = double(r.*field) / 1000.0;
                return QString::number(us, 'f', us < 100 ? 2 : 1);
            }};
}

TableColumn<DeviceOpRow> percent(const QString& header, const QString& tooltip,
                                 double (DeviceOpRow::*ratio)() const) {
    return {header, tooltip, [ratio](const DeviceOpRow& r) { return QVariant(100 * (r.*ratio)()); },
            [ratio](const DeviceOpRow& r) { return QString::number(100 * (r.*ratio)(), 'f', 2); }};
}

// The order here is the Column enum's order.
std::vector<TableColumn<DeviceOpRow>> deviceOpColumns() {
    using C = TableColumn<DeviceOpRow>;
    using R = DeviceOpRow;
    return {
        C{tr("Name"), tr("Operator"), [](const R& r) { return text(r.name); }, {}, false},
        C{tr("Input shapes"),
          tr("Shapes of the inputs (when grouped by them)"),
          [](const R& r) { return text(r.shapes); },
          {},
          false},
        C{tr("Call stack"),
          tr("Python call stack (when grouped by it)"),
          [](const R& r) { return text(r.call_stack); },
          {},
          false},
        C{tr("Calls"), tr("Number of calls"), [](const R& r) { return QVariant(qint64(r.calls)); }},
        microseconds(tr("Device self (µs)"), tr("Device time of the kernels the operator launched"),
                     &R::device_self_ns),
        microseconds(tr("Device total (µs)"), tr("Device time including its child operators"),
                     &R::device_total_ns),
        microseconds(tr("Host self (µs)"), tr("Host time in the operator itself"),
                     &R::host_self_ns),
        microseconds(tr("Host total (µs)"), tr("Host time including its child operators"),
                     &R::host_total_ns),
        C{tr("Tensor Cores eligible"),
          tr("The operator could run on Tensor Cores"),
          [](const R& r) { return QVariant(r.tc_eligible ? tr("Yes") : tr("No")); },
          {},
          false},
        percent(tr("TC self %"), tr("Share of the device self time on Tensor Cores"),
                &R::tcSelfRatio),
        percent(tr("TC total %"), tr("Share of the device total time on Tensor Cores"),
                &R::tcTotalRatio),
    };
}

} // namespace

DeviceOpTableModel::DeviceOpTableModel(QObject* parent)
    : TableModel<DeviceOpRow>(deviceOpColumns(), parent) {}

void DeviceOpTableModel::setTable(DeviceOpTable table) {
    by_device_ = table.by_device; // before the reset, so its listeners see it
    setRows(std::move(table.rows));
}

// A call stack reads better one frame a line than as Kineto's ';'-joined text.
QVariant DeviceOpTableModel::toolTip(const DeviceOpRow& row, int column) const {
    if (column == CallStack)
        return QString::fromStdString(row.call_stack)
            .split(QLatin1Char(';'))
            .join(QLatin1Char('\n'));
    return TableModel<DeviceOpRow>::toolTip(row, column);
}

} // namespace ts::gui
