#include "report/MemoryReport.h"

#include <nlohmann/json.hpp>

#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"
#include "util/Csv.h"

namespace ts {

namespace {

using json = nlohmann::json;

constexpr const char* kOwnNote =
    "note: Trainscope's own memory samples carry no addresses: allocations are not matched "
    "with their release (released at and lifetime stay empty), releases are not listed and "
    "reserved bytes are unknown.";

constexpr const char* kNetPeak = "peak net allocated since the trace began ";
constexpr const char* kNetNote =
    "note: the trace's [memory] events have no Total Allocated (PyTorch before 1.10): the "
    "curve sums their Bytes, the memory allocated since the trace began, not what was in use; "
    "without addresses the allocation table stays empty.";

// What the curve's values are.
const char* curveKind(const DeviceMemoryView& d) {
    return d.net_since_start ? "net_since_start" : "allocated";
}

size_t rowCount(size_t size, size_t limit) {
    return limit == 0 ? size : std::min(size, limit);
}

std::string kb(int64_t bytes) {
    return fixed(double(bytes) / 1024, 2);
}

std::string optionalMicros(const std::optional<int64_t>& ns) {
    return ns ? microsText(double(*ns)) : std::string();
}

json optionalMicrosJson(const std::optional<int64_t>& ns) {
    return ns ? json(double(*ns) / 1000) : json(nullptr);
}

TableRows operatorRows(const DeviceMemoryView& d, size_t limit, bool in_kb) {
    auto size = [&](int64_t b) { return in_kb ? kb(b) : std::to_string(b); };
    TableRows rows;
    for (size_t i = 0; i < rowCount(d.operators.size(), limit); ++i) {
        const MemoryOpRow& r = d.operators[i];
        rows.push_back({r.name, std::to_string(r.calls), size(r.size_increase),
                        size(r.self_size_increase), std::to_string(r.alloc_count),
                        std::to_string(r.self_alloc_count), size(r.alloc_size),
                        size(r.self_alloc_size)});
    }
    return rows;
}

TableRows allocationRows(const DeviceMemoryView& d, size_t limit, bool in_kb) {
    TableRows rows;
    for (size_t i = 0; i < rowCount(d.allocations.size(), limit); ++i) {
        const MemoryAllocation& a = d.allocations[i];
        rows.push_back({a.op, in_kb ? kb(a.bytes) : std::to_string(a.bytes),
                        optionalMicros(a.allocated_ns), optionalMicros(a.released_ns),
                        optionalMicros(a.lifetimeNs())});
    }
    return rows;
}

std::string csvTable(const std::vector<std::string>& headers, const TableRows& rows) {
    std::string out = csvLine(headers) + "\n";
    for (const auto& row : rows)
        out += csvLine(row) + "\n";
    return out;
}

} // namespace

std::string memoryText(const MemoryView& view, size_t limit) {
    std::string out;
    if (view.own_samples) out += std::string(kOwnNote) + "\n";
    for (const DeviceMemoryView& d : view.devices) {
        out += "\nMemory " + d.name + ": ";
        out += d.curve.empty()
                   ? "no curve (no records)"
                   : std::string(d.net_since_start ? kNetPeak : "peak allocated ") +
                         kb(d.peak_allocated) + " KB at " + microsText(double(d.peak_t_ns)) +
                         " us (" + std::to_string(d.curve.size()) + " curve points)";
        if (d.net_since_start) out += std::string("\n") + kNetNote;
        out += "\n\nOperators (KB):\n";
        out += plainTable({"Operator", "Calls", "Size Increase", "Self Size Increase",
                           "Allocation Count", "Self Allocation Count", "Allocation Size",
                           "Self Allocation Size"},
                          operatorRows(d, limit, true));
        out += "\nAllocations (KB, us):\n";
        out += plainTable({"Operator", "Size", "Allocated At", "Released At", "Lifetime"},
                          allocationRows(d, limit, true));
    }
    return out;
}

std::string memoryCsv(const MemoryView& view, size_t limit) {
    TableRows peaks, ops, allocs;
    for (const DeviceMemoryView& d : view.devices) {
        const bool curve = !d.curve.empty();
        peaks.push_back({d.name, curve ? std::to_string(d.peak_allocated) : "",
                         curve ? microsText(double(d.peak_t_ns)) : "",
                         std::to_string(d.curve.size()), curveKind(d)});
        for (auto& row : operatorRows(d, limit, false)) {
            row.insert(row.begin(), d.name);
            ops.push_back(std::move(row));
        }
        for (auto& row : allocationRows(d, limit, false)) {
            row.insert(row.begin(), d.name);
            allocs.push_back(std::move(row));
        }
    }
    return csvTable({"device", "peak_allocated_bytes", "peak_time_us", "curve_points", "curve"},
                    peaks) +
           "\n" +
           csvTable({"device", "operator", "calls", "size_increase_bytes",
                     "self_size_increase_bytes", "allocation_count", "self_allocation_count",
                     "allocation_size_bytes", "self_allocation_size_bytes"},
                    ops) +
           "\n" +
           csvTable(
               {"device", "operator", "bytes", "allocated_at_us", "released_at_us", "lifetime_us"},
               allocs);
}

namespace {

json deviceJson(const DeviceMemoryView& d, size_t limit, size_t max_curve_points) {
    json curve = json::array();
    for (const MemoryPoint& p : downsampleCurve(d.curve, max_curve_points))
        curve.push_back({double(p.t_ns) / 1000, p.allocated,
                         p.reserved >= 0 ? json(p.reserved) : json(nullptr)});
    json ops = json::array();
    for (size_t i = 0; i < rowCount(d.operators.size(), limit); ++i) {
        const MemoryOpRow& r = d.operators[i];
        ops.push_back({{"name", r.name},
                       {"calls", r.calls},
                       {"size_increase_bytes", r.size_increase},
                       {"self_size_increase_bytes", r.self_size_increase},
                       {"allocation_count", r.alloc_count},
                       {"self_allocation_count", r.self_alloc_count},
                       {"allocation_size_bytes", r.alloc_size},
                       {"self_allocation_size_bytes", r.self_alloc_size}});
    }
    json allocs = json::array();
    for (size_t i = 0; i < rowCount(d.allocations.size(), limit); ++i) {
        const MemoryAllocation& a = d.allocations[i];
        allocs.push_back({{"operator", a.op},
                          {"bytes", a.bytes},
                          {"allocated_at_us", optionalMicrosJson(a.allocated_ns)},
                          {"released_at_us", optionalMicrosJson(a.released_ns)},
                          {"lifetime_us", optionalMicrosJson(a.lifetimeNs())}});
    }
    const bool has_curve = !d.curve.empty();
    return {{"name", d.name},
            {"peak_allocated_bytes", has_curve ? json(d.peak_allocated) : json(nullptr)},
            {"peak_time_us", has_curve ? json(double(d.peak_t_ns) / 1000) : json(nullptr)},
            {"curve_points", d.curve.size()},
            {"curve_kind", curveKind(d)},
            {"curve", std::move(curve)},
            {"operators", std::move(ops)},
            {"allocations", std::move(allocs)}};
}

} // namespace

json memoryJson(const MemoryView& view, size_t limit, size_t max_curve_points) {
    json devices = json::array();
    for (const DeviceMemoryView& d : view.devices)
        devices.push_back(deviceJson(d, limit, max_curve_points));
    return {{"own_samples", view.own_samples}, {"devices", std::move(devices)}};
}

} // namespace ts
