#include "gpu/GpuTableModels.h"

#include "report/GpuTables.h"
#include "report/StepTables.h"

namespace ts::gui {

AverageStepModel::AverageStepModel(QObject* parent) : SpecTableModel(parent) {
    setSpec(averageStepTable({}, {}), true);
}

void AverageStepModel::setContent(const OverviewContent& content) {
    std::vector<std::string> categories;
    for (const QString& c : content.categories)
        categories.push_back(c.toStdString());
    setSpec(averageStepTable(categories, content.average_us), true);
}

int kernelColumn(const char* key) {
    static const table::TableSpec by_name = kernelTableSpec(KernelTables{}, false);
    return by_name.columnIndex(key);
}

} // namespace ts::gui
