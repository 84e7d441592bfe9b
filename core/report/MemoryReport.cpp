#include "report/MemoryReport.h"

#include <nlohmann/json.hpp>

#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"
#include "report/MemoryTables.h"

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

std::string kb(int64_t bytes) {
    return fixed(double(bytes) / 1024, 2);
}

table::TableSpec peakTable(const MemoryView& view) {
    using table::Column;
    using table::ColumnKind;
    table::TableSpec spec;
    spec.columns = {Column{"device", "Device", ""},
                    Column{"peak_allocated_bytes", "Peak Allocated", "", ColumnKind::Integer},
                    Column{"peak_time_us", "Peak Time (us)", "", ColumnKind::Number},
                    Column{"curve_points", "Curve Points", "", ColumnKind::Integer},
                    Column{"curve", "Curve", ""}};
    for (const DeviceMemoryView& d : view.devices) {
        const bool curve = !d.curve.empty();
        spec.rows.push_back(
            {table::textCell(d.name), curve ? table::integerCell(d.peak_allocated) : table::Cell{},
             curve ? table::numberCell(microsText(double(d.peak_t_ns)), double(d.peak_t_ns) / 1000)
                   : table::Cell{},
             table::integerCell(int64_t(d.curve.size())), table::textCell(curveKind(d))});
    }
    return spec;
}

// Every device's rows of a table, the device first.
template <typename Rows, typename Build>
table::TableSpec allDevices(const MemoryView& view, Rows DeviceMemoryView::*rows, Build build,
                            size_t limit) {
    table::TableSpec all = build(Rows{}, SizeText::Bytes);
    all = table::withLeadingColumn(std::move(all), table::Column{"device", "Device", ""}, "");
    for (const DeviceMemoryView& d : view.devices)
        table::appendRows(
            all, table::withLeadingColumn(table::firstRows(build(d.*rows, SizeText::Bytes), limit),
                                          table::Column{"device", "Device", ""}, d.name));
    return all;
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
        out += table::toText(table::firstRows(memoryOperatorTable(d.operators), limit));
        out += "\nAllocations (KB):\n";
        out += table::toText(table::firstRows(memoryAllocationTable(d.allocations), limit));
    }
    return out;
}

std::string memoryCsv(const MemoryView& view, size_t limit) {
    return table::toDataCsv(peakTable(view)) + "\n" +
           table::toDataCsv(
               allDevices(view, &DeviceMemoryView::operators, memoryOperatorTable, limit)) +
           "\n" +
           table::toDataCsv(
               allDevices(view, &DeviceMemoryView::allocations, memoryAllocationTable, limit));
}

namespace {

json deviceJson(const DeviceMemoryView& d, size_t limit, size_t max_curve_points) {
    json curve = json::array();
    for (const MemoryPoint& p : downsampleCurve(d.curve, max_curve_points))
        curve.push_back({double(p.t_ns) / 1000, p.allocated,
                         p.reserved >= 0 ? json(p.reserved) : json(nullptr)});
    json ops =
        table::rowsJson(table::firstRows(memoryOperatorTable(d.operators, SizeText::Bytes), limit));
    json allocs = table::rowsJson(
        table::firstRows(memoryAllocationTable(d.allocations, SizeText::Bytes), limit));
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
