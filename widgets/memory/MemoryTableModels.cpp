#include "memory/MemoryTableModels.h"

#include <QCoreApplication>

#include "common/Format.h"

namespace ts::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("MemoryTableModels", text);
}

QString ms(int64_t ns) {
    return QString::number(double(ns) / 1e6, 'f', 3);
}

// A time that may be outside the records: unknown sorts after every known value.
QVariant optionalMs(const std::optional<int64_t>& ns) {
    return ns ? QVariant(double(*ns) / 1e6) : QVariant();
}

QString optionalMsText(const std::optional<int64_t>& ns) {
    return ns ? ms(*ns) : QStringLiteral("–");
}

template <typename Row, typename Get>
TableColumn<Row> bytesColumn(const char* header, const char* tooltip, Get get) {
    return TableColumn<Row>{tr(header), tr(tooltip),
                            [get](const Row& r) { return QVariant(qint64(get(r))); },
                            [get](const Row& r) { return format::bytes(double(get(r))); }};
}

template <typename Row, typename Get>
TableColumn<Row> countColumn(const char* header, const char* tooltip, Get get) {
    return TableColumn<Row>{tr(header), tr(tooltip),
                            [get](const Row& r) { return QVariant(qint64(get(r))); }};
}

std::vector<TableColumn<MemoryAllocation>> allocationColumns() {
    using Row = MemoryAllocation;
    return {
        TableColumn<Row>{tr("Operator"),
                         tr("The operator that allocated (\"parent (aten::empty…)\" when an "
                            "empty tensor was made for its caller)"),
                         [](const Row& r) { return QVariant(QString::fromStdString(r.op)); },
                         {},
                         false},
        bytesColumn<Row>("Size", "Bytes allocated", [](const Row& r) { return r.bytes; }),
        TableColumn<Row>{tr("Allocated at (ms)"),
                         tr("From the start of the trace; – when it was allocated before the "
                            "selected range or the trace"),
                         [](const Row& r) { return optionalMs(r.allocated_ns); },
                         [](const Row& r) { return optionalMsText(r.allocated_ns); }},
        TableColumn<Row>{tr("Released at (ms)"),
                         tr("From the start of the trace; – when it was still held at the end of "
                            "the selected range or the trace"),
                         [](const Row& r) { return optionalMs(r.released_ns); },
                         [](const Row& r) { return optionalMsText(r.released_ns); }},
        TableColumn<Row>{tr("Lifetime (ms)"), tr("Released at − allocated at"),
                         [](const Row& r) { return optionalMs(r.lifetimeNs()); },
                         [](const Row& r) { return optionalMsText(r.lifetimeNs()); }},
    };
}

std::vector<TableColumn<MemoryOpRow>> operatorColumns() {
    using Row = MemoryOpRow;
    return {
        TableColumn<Row>{tr("Operator"),
                         tr("Operator name"),
                         [](const Row& r) { return QVariant(QString::fromStdString(r.name)); },
                         {},
                         false},
        countColumn<Row>("Calls", "Calls of the operator in the range",
                         [](const Row& r) { return r.calls; }),
        bytesColumn<Row>("Size Increase",
                         "Allocated − released by the operator and everything it called",
                         [](const Row& r) { return r.size_increase; }),
        bytesColumn<Row>("Self Size Increase", "Allocated − released by the operator itself",
                         [](const Row& r) { return r.self_size_increase; }),
        countColumn<Row>("Allocations", "Allocations by the operator and everything it called",
                         [](const Row& r) { return r.alloc_count; }),
        countColumn<Row>("Self Allocations", "Allocations by the operator itself",
                         [](const Row& r) { return r.self_alloc_count; }),
        bytesColumn<Row>("Allocation Size",
                         "Bytes allocated by the operator and everything it called",
                         [](const Row& r) { return r.alloc_size; }),
        bytesColumn<Row>("Self Allocation Size", "Bytes allocated by the operator itself",
                         [](const Row& r) { return r.self_alloc_size; }),
    };
}

} // namespace

MemoryAllocationModel::MemoryAllocationModel(QObject* parent)
    : TableModel<MemoryAllocation>(allocationColumns(), parent) {}

MemoryOperatorModel::MemoryOperatorModel(QObject* parent)
    : TableModel<MemoryOpRow>(operatorColumns(), parent) {}

} // namespace ts::gui
