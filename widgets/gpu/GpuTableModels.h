#pragma once
// The item models of the Overview and Kernels tabs, on TableModel<Row>:
// the average step by category, kernels by name, and kernels by name,
// operator and launch configuration. Times are in microseconds, as the
// TensorBoard plugin shows them; the kernel models share their first columns
// so a view can switch between them without remapping columns.
#include "analysis/KernelStats.h"
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

// Columns of both kernel models, in this order; KernelOpModel adds its own.
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
    KernelOperator,
    KernelGrid,
    KernelBlock,
    KernelRegisters,
    KernelSharedMemory,
};

class KernelModel : public TableModel<KernelRow> {
public:
    explicit KernelModel(QObject* parent = nullptr);
};

class KernelOpModel : public TableModel<KernelOpRow> {
public:
    explicit KernelOpModel(QObject* parent = nullptr);
};

} // namespace ts::gui
