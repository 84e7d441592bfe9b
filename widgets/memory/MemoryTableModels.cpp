#include "memory/MemoryTableModels.h"

#include "report/MemoryTables.h"

namespace ts::gui {

MemoryAllocationModel::MemoryAllocationModel(QObject* parent)
    : SpecRowsModel<MemoryAllocation>(
          [](const std::vector<MemoryAllocation>& rows) { return memoryAllocationTable(rows); },
          parent) {}

MemoryOperatorModel::MemoryOperatorModel(QObject* parent)
    : SpecRowsModel<MemoryOpRow>(
          [](const std::vector<MemoryOpRow>& rows) { return memoryOperatorTable(rows); }, parent) {}

} // namespace ts::gui
