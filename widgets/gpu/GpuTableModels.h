#pragma once
// The Overview's table of the average step by category, as
// report/StepTables.h describes it, for a Kineto trace or one of
// Trainscope's runs (OverviewContent). The Kernels tab's models are plain
// SpecTableModels of report/GpuTables.h.
#include "common/SpecTableModel.h"
#include "gpu/OverviewContent.h"

namespace ts::gui {

class AverageStepModel : public SpecTableModel {
public:
    explicit AverageStepModel(QObject* parent = nullptr);
    void setContent(const OverviewContent& content);
};

// The column of the Kernels tab's tables whose key is `key`
// (report/GpuTables.h's kernel_column); both tables start with the name.
int kernelColumn(const char* key);

} // namespace ts::gui
