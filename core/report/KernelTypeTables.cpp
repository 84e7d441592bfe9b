#include "report/KernelTypeTables.h"

#include <nlohmann/json.hpp>

#include "report/DiagnosisCells.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …
using diagnosis::micros;
using diagnosis::rankColumn;
using diagnosis::usColumn;

} // namespace

table::TableSpec kernelTypeTable(const std::vector<KernelTypeBreakdown>& ranks) {
    TableSpec spec;
    spec.title = "Kernel types";
    spec.columns = {Column{"kernel_type", "Kernel Type",
                           "Which types ran at once (HTA's labels: COMPUTATION, COMMUNICATION, "
                           "MEMORY, and their overlaps)"},
                    rankColumn(),
                    usColumn("time_us", "Time (us)", "Each type's union, overlaps apart"),
                    Column{"pct", "Share (%)", "Of the time any kernel ran", ColumnKind::Number,
                           false, ColumnUnit::Percent}};
    for (const KernelTypeBreakdown& r : ranks) {
        const double total = double(r.totalNs());
        for (const TypeOverlap& o : r.overlaps) {
            const double pct = total > 0 ? 100 * double(o.ns) / total : 0;
            spec.rows.push_back({textCell(overlapLabel(o.types)), integerCell(r.rank),
                                 micros(double(o.ns)), numberCell(fixed(pct, 1), pct)});
        }
    }
    return spec;
}

table::TableSpec kernelsByTypeTable(const std::vector<KernelTypeBreakdown>& ranks) {
    TableSpec spec;
    spec.title = "Kernels by type";
    spec.columns = {Column{"name", "Kernel", "The kernel, copy or set"},
                    rankColumn(),
                    Column{"kernel_type", "Type", "computation, communication or memory"},
                    Column{"count", "Calls", "", ColumnKind::Integer},
                    usColumn("total_us", "Total (us)"),
                    usColumn("mean_us", "Mean (us)"),
                    usColumn("std_us", "Std (us)", "Sample standard deviation"),
                    usColumn("min_us", "Min (us)"),
                    usColumn("max_us", "Max (us)")};
    for (const KernelTypeBreakdown& r : ranks)
        for (const KernelTypeRow& k : r.kernels)
            spec.rows.push_back({textCell(k.name), integerCell(r.rank), textCell(toString(k.type)),
                                 integerCell(k.count), micros(double(k.total_ns)),
                                 micros(k.mean_ns), micros(k.std_ns), micros(double(k.min_ns)),
                                 micros(double(k.max_ns))});
    for (const KernelTypeBreakdown& r : ranks)
        for (const KernelTypeRow& k : r.kernels)
            spec.row_events.push_back(k.longest);
    return spec;
}

nlohmann::json kernelTypesJson(const std::vector<KernelTypeBreakdown>& ranks) {
    nlohmann::json out = nlohmann::json::array();
    for (const KernelTypeBreakdown& r : ranks) {
        nlohmann::json types = rowsJson(kernelTypeTable({r}));
        nlohmann::json kernels = rowsJson(kernelsByTypeTable({r}));
        for (nlohmann::json& row : types)
            row.erase("rank");
        for (nlohmann::json& row : kernels)
            row.erase("rank");
        out.push_back(
            {{"rank", r.rank}, {"types", std::move(types)}, {"kernels", std::move(kernels)}});
    }
    return {{"ranks", std::move(out)}};
}

} // namespace ts
