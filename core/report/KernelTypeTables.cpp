#include "report/KernelTypeTables.h"

#include <algorithm>
#include <cmath>
#include <map>

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

table::TableSpec kernelTypeSpreadTable(const std::vector<KernelTypeBreakdown>& ranks) {
    TableSpec spec;
    spec.title = "Kernel types across ranks";
    spec.columns = {
        Column{"kernel_type", "Kernel Type", "Alone or overlapping (HTA's labels)"},
        usColumn("min_us", "Least (us)", "The rank with the least of it"),
        Column{"min_rank", "Rank", "", ColumnKind::Integer},
        usColumn("mean_us", "Mean (us)", "Over the ranks"),
        usColumn("max_us", "Most (us)", "The rank with the most of it"),
        Column{"max_rank", "Rank", "", ColumnKind::Integer},
        Column{"spread", "Most/Least", "1 when every rank is alike", ColumnKind::Number}};
    if (ranks.size() < 2) return spec;
    // Every label any rank has; a rank without it has 0 of it.
    std::map<uint8_t, std::vector<std::pair<int64_t, int64_t>>> by_type; // (ns, rank)
    for (const KernelTypeBreakdown& r : ranks)
        for (const TypeOverlap& o : r.overlaps)
            by_type[o.types];
    for (auto& [types, values] : by_type)
        for (const KernelTypeBreakdown& r : ranks) {
            int64_t ns = 0;
            for (const TypeOverlap& o : r.overlaps)
                if (o.types == types) ns = o.ns;
            values.push_back({ns, r.rank});
        }
    for (const auto& [types, values] : by_type) {
        const auto [least, most] = std::minmax_element(values.begin(), values.end());
        double sum = 0;
        for (const auto& v : values)
            sum += double(v.first);
        const double spread =
            least->first > 0 ? double(most->first) / double(least->first) : std::nan("");
        spec.rows.push_back({textCell(overlapLabel(types)), micros(double(least->first)),
                             integerCell(least->second), micros(sum / double(values.size())),
                             micros(double(most->first)), integerCell(most->second),
                             std::isnan(spread) ? Cell{} : numberCell(fixed(spread, 2), spread)});
    }
    return spec;
}

table::TableSpec commCompOverlapTable(const std::vector<KernelTypeBreakdown>& ranks) {
    TableSpec spec;
    spec.title = "Communication/computation overlap";
    spec.columns = {
        rankColumn(),
        usColumn("communication_us", "Communication (us)",
                 "The union of the communication kernels"),
        usColumn("overlapped_us", "Overlapped (us)", "Of it, while some computation kernel ran"),
        diagnosis::percentColumn("comp_comm_overlap_pctg", "Overlap (%)",
                                 "Of the communication time (HTA's definition)")};
    for (const KernelTypeBreakdown& r : ranks) {
        const double share = r.commCompOverlap();
        spec.rows.push_back({integerCell(r.rank), micros(double(r.communicationNs())),
                             micros(double(r.overlappedCommunicationNs())),
                             std::isnan(share) ? Cell{} : diagnosis::percentCell(100 * share)});
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
        for (const KernelTypeRow& k : r.kernels) {
            spec.rows.push_back({textCell(k.name), integerCell(r.rank), textCell(toString(k.type)),
                                 integerCell(k.count), micros(double(k.total_ns)),
                                 micros(k.mean_ns), micros(k.std_ns), micros(double(k.min_ns)),
                                 micros(double(k.max_ns))});
            spec.row_events.push_back(k.longest);
        }
    return spec;
}

nlohmann::json kernelTypesJson(const std::vector<KernelTypeBreakdown>& ranks) {
    nlohmann::json out = nlohmann::json::array();
    for (const KernelTypeBreakdown& r : ranks) {
        nlohmann::json types = rowsJson(kernelTypeTable({r}), "rank");
        nlohmann::json kernels = rowsJson(kernelsByTypeTable({r}), "rank");
        nlohmann::json rank = rowsJson(commCompOverlapTable({r}))[0];
        if (!rank.contains("comp_comm_overlap_pctg") || rank["comp_comm_overlap_pctg"].is_string())
            rank["comp_comm_overlap_pctg"] = nullptr; // no communication: HTA's NaN
        rank["types"] = std::move(types);
        rank["kernels"] = std::move(kernels);
        out.push_back(std::move(rank));
    }
    nlohmann::json j = {{"ranks", std::move(out)}};
    if (ranks.size() > 1) j["spread"] = rowsJson(kernelTypeSpreadTable(ranks));
    return j;
}

} // namespace ts
