#pragma once
// The Operators table of a torch.profiler (Kineto) trace: one row per
// ts::DeviceOpRow, the columns of report/GpuTables.h's deviceOpTableSpec
// (the TensorBoard plugin's Operator view, as `trace-stats --view operators`
// prints it), every one kept: the view hides those the grouping leaves empty.
#include <vector>

#include "analysis/DeviceOpStats.h"
#include "common/SpecTableModel.h"

namespace ts::gui {

class DeviceOpTableModel : public SpecTableModel {
public:
    explicit DeviceOpTableModel(QObject* parent = nullptr);
    void setTable(DeviceOpTable table);
    void clear() { setTable({}); }
    const DeviceOpRow& rowAt(int row) const { return rows_.at(size_t(row)); }
    // The trace has device time (kernels, memcpy or memset).
    bool byDevice() const { return by_device_; }
    // What the table ranks by until the user sorts: device self time when
    // there is device time, else host self time (as the plugin does).
    int defaultSortColumn() const;

protected:
    QVariant toolTip(int row, int column) const override;

private:
    std::vector<DeviceOpRow> rows_;
    bool by_device_ = false;
};

} // namespace ts::gui
