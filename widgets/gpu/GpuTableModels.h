#pragma once
// The Overview's table of the average step by category (TableModel<Row>),
// and the columns of the Kernels tab (its models are SpecTableModels of
// report/GpuTables.h). Times are in microseconds, as the TensorBoard plugin
// shows them.
#include "common/TableModel.h"
#include "gpu/OverviewContent.h"

namespace ts::gui {

struct CategoryShare {
    QString category;
    double us = 0;
    double share = 0; // of the average step, 0..1
};

std::vector<CategoryShare> averageStepShares(const OverviewContent& content);

class AverageStepModel : public TableModel<CategoryShare> {
public:
    enum Column { Category, Us, Percent, ColumnCount };
    explicit AverageStepModel(QObject* parent = nullptr);
};

// The columns of the Kernels tab grouped by name, as kernelTableSpec
// (report/GpuTables.h) orders them; a trace without blocks per SM or
// occupancy has neither column.
enum KernelColumn {
    KernelName,
    KernelTensorCores,
    KernelCalls,
    KernelTotalUs,
    KernelMeanUs,
    KernelMaxUs,
    KernelMinUs,
    KernelBlocksPerSm,
    KernelOccupancy,
};

} // namespace ts::gui
