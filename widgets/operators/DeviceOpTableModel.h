#pragma once
// The Operators table of a torch.profiler (Kineto) trace: one row per
// ts::DeviceOpRow (the TensorBoard plugin's Operator view, as
// `trace-stats --view operators` prints it). Times are in microseconds, as
// in the trace; Tensor-Core shares in percent.
#include "analysis/DeviceOpStats.h"
#include "common/TableModel.h"

namespace ts::gui {

class DeviceOpTableModel : public TableModel<DeviceOpRow> {
public:
    enum Column {
        Name,
        Shapes,
        CallStack,
        Calls,
        DeviceSelf,
        DeviceTotal,
        HostSelf,
        HostTotal,
        TcEligible,
        TcSelfPercent,
        TcTotalPercent,
        ColumnCount
    };

    explicit DeviceOpTableModel(QObject* parent = nullptr);
    void setTable(DeviceOpTable table);
    // The trace has device time (kernels, memcpy or memset).
    bool byDevice() const { return by_device_; }
    // What the table ranks by until the user sorts: device self time when
    // there is device time, else host self time (as the plugin does).
    int defaultSortColumn() const { return by_device_ ? DeviceSelf : HostSelf; }

protected:
    QVariant toolTip(const DeviceOpRow& row, int column) const override;

private:
    bool by_device_ = false;
};

} // namespace ts::gui
