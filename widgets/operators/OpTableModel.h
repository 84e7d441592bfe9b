#pragma once
// Trainscope's operator table (one row per ts::OpStat), with the columns and
// texts of report/OpTables.h: those `trace-stats` prints as torch.profiler
// does, and the pass and arithmetic intensity.
#include "analysis/OpStats.h"
#include "common/SpecRowsModel.h"

namespace ts::gui {

class OpTableModel : public SpecRowsModel<OpStat> {
public:
    explicit OpTableModel(QObject* parent = nullptr);
    void setTable(OpTable table);
    int64_t totalSelfCpuNs() const { return total_self_cpu_ns_; }
    int64_t totalSelfDeviceNs() const { return total_self_device_ns_; }

private:
    int64_t total_self_cpu_ns_ = 0;
    int64_t total_self_device_ns_ = 0;
};

} // namespace ts::gui
