#pragma once
// The Memory tab's two tables on TableModel<Row>: the allocations (each
// matched with its release) and the per-operator memory statistics of one
// device over the selected time range. Sizes sort as bytes and show as
// "3.4 MiB"; times are milliseconds from the start of the trace.
#include "analysis/MemoryView.h"
#include "common/TableModel.h"

namespace ts::gui {

class MemoryAllocationModel : public TableModel<MemoryAllocation> {
public:
    enum Column { Operator, Size, AllocatedAt, ReleasedAt, Lifetime, ColumnCount };
    explicit MemoryAllocationModel(QObject* parent = nullptr);
};

class MemoryOperatorModel : public TableModel<MemoryOpRow> {
public:
    enum Column {
        Operator,
        Calls,
        SizeIncrease,
        SelfSizeIncrease,
        AllocationCount,
        SelfAllocationCount,
        AllocationSize,
        SelfAllocationSize,
        ColumnCount
    };
    explicit MemoryOperatorModel(QObject* parent = nullptr);
};

} // namespace ts::gui
