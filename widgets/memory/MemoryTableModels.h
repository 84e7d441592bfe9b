#pragma once
// The Memory tab's two tables, as the CLI prints them (report/MemoryTables.h):
// the allocations (each matched with its release) and the per-operator memory
// statistics of one device over the selected time range. Sizes sort as bytes
// and show as "3.4 MiB".
#include "analysis/MemoryView.h"
#include "common/SpecRowsModel.h"

namespace ts::gui {

class MemoryAllocationModel : public SpecRowsModel<MemoryAllocation> {
public:
    explicit MemoryAllocationModel(QObject* parent = nullptr);
};

class MemoryOperatorModel : public SpecRowsModel<MemoryOpRow> {
public:
    explicit MemoryOperatorModel(QObject* parent = nullptr);
};

} // namespace ts::gui
