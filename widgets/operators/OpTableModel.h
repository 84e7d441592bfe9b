#pragma once
// torch.profiler-style operator table: one row per ts::OpStat.
#include "analysis/OpStats.h"
#include "common/TableModel.h"

namespace ts::gui {

class OpTableModel : public TableModel<OpStat> {
public:
    enum Column {
        Name,
        Shapes,
        Pass,
        Calls,
        SelfCpu,
        SelfCpuPercent,
        CpuTotal,
        AvgCpu,
        SelfDevice,
        DeviceTotal,
        CpuMem,
        SelfCpuMem,
        Flops,
        GflopsPerSec,
        Intensity,
        ColumnCount
    };

    explicit OpTableModel(QObject* parent = nullptr);
    void setTable(OpTable table);
    int64_t totalSelfCpuNs() const { return total_self_cpu_ns_; }
    int64_t totalSelfDeviceNs() const { return total_self_device_ns_; }

private:
    static std::vector<TableColumn<OpStat>> makeColumns(const OpTableModel* model);
    int64_t total_self_cpu_ns_ = 0;
    int64_t total_self_device_ns_ = 0;
};

} // namespace ts::gui
