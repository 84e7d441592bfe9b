#include "report/AreaTables.h"

#include <cstdio>

#include "report/DiagnosisCells.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, …
using diagnosis::micros;
using diagnosis::percentCell;
using diagnosis::percentColumn;
using diagnosis::usColumn;

std::vector<Column> figureColumns() {
    return {Column{"kind", "Kind", "operator, kernel, runtime, memcpy/memset, annotation, other"},
            Column{"count", "Count", "Events that overlap the area", ColumnKind::Integer},
            usColumn("total_us", "Total (us)", "Their whole durations"),
            usColumn("self_us", "Self (us)", "Their durations less their children's"),
            usColumn("inside_us", "In Area (us)", "The part of them inside the area's time"),
            usColumn("mean_us", "Mean (us)", "Total / count"),
            usColumn("min_us", "Min (us)", "The shortest"),
            usColumn("max_us", "Max (us)", "The longest")};
}

std::vector<Cell> figureCells(const AreaRow& r) {
    return {textCell(toString(r.kind)), integerCell(r.count),        micros(double(r.total_ns)),
            micros(double(r.self_ns)),  micros(double(r.inside_ns)), micros(r.meanNs()),
            micros(double(r.min_ns)),   micros(double(r.max_ns))};
}

Column bytesColumn(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, ColumnKind::Integer, false, ColumnUnit::Bytes};
}

} // namespace

std::string areaHeadline(const Trace& trace, const AreaSummary& s) {
    char text[256];
    const double length = double(s.area.end_ns - s.area.start_ns);
    std::snprintf(text, sizeof text, "%.3f ms from %.3f ms, %zu of %zu lanes, %lld events",
                  length / 1e6, double(s.area.start_ns) / 1e6, s.lanes, trace.lanes.size(),
                  static_cast<long long>(s.events));
    std::string out = text;
    if (s.has_gpu) {
        std::snprintf(text, sizeof text, "; GPU busy %.1f%%", s.gpu_busy * 100);
        out += text;
    }
    return out;
}

TableSpec areaCategoryTable(const AreaSummary& s) {
    TableSpec spec;
    spec.title = "The area's time by category (as an Overview step)";
    spec.columns = {Column{"category", "Category",
                           "The first of Kernel > Memcpy > Memset > Communication > Runtime > "
                           "DataLoader > CPU Exec active then, else Other"},
                    usColumn("time_us", "Time (us)", "Of the area's time range"),
                    percentColumn("pct", "Share (%)", "Of the area's time range")};
    const int64_t total = s.categories_ns[size_t(GpuRole::Total)];
    if (total <= 0) return spec;
    for (size_t r = 0; r < kGpuRoleCount; ++r)
        spec.rows.push_back({textCell(toString(GpuRole(r))), micros(double(s.categories_ns[r])),
                             percentCell(100.0 * double(s.categories_ns[r]) / double(total))});
    return spec;
}

TableSpec areaNameTable(const Trace& trace, const AreaSummary& s) {
    TableSpec spec;
    spec.title = "In the area, by name";
    spec.columns = {Column{"name", "Name", "Event name"}};
    for (Column& c : figureColumns())
        spec.columns.push_back(std::move(c));
    for (const AreaRow& r : s.overall) {
        std::vector<Cell> row{textCell(trace.names[r.name])};
        for (Cell& c : figureCells(r))
            row.push_back(std::move(c));
        spec.rows.push_back(std::move(row));
    }
    return spec;
}

TableSpec areaLaneTable(const Trace& trace, const AreaSummary& s) {
    TableSpec spec;
    spec.title = "In the area, by lane";
    spec.columns = {Column{"name", "Name", "Event name"},
                    Column{"lane", "Lane", "The thread or stream (the timeline's row)"}};
    for (Column& c : figureColumns())
        spec.columns.push_back(std::move(c));
    for (const AreaRow& r : s.by_lane) {
        std::vector<Cell> row{textCell(trace.names[r.name]),
                              textCell(trace.lanes[size_t(r.lane)].name)};
        for (Cell& c : figureCells(r))
            row.push_back(std::move(c));
        spec.rows.push_back(std::move(row));
    }
    return spec;
}

TableSpec areaMemoryTable(const AreaSummary& s) {
    TableSpec spec;
    spec.title = "Memory allocated and freed in the area";
    spec.columns = {Column{"device", "Device", "cpu, cuda0, ..."},
                    bytesColumn("allocated_bytes", "Allocated", "Bytes allocated"),
                    bytesColumn("freed_bytes", "Freed", "Bytes freed"),
                    Column{"records", "Records", "Allocations and frees", ColumnKind::Integer}};
    for (const AreaMemory& m : s.memory)
        spec.rows.push_back({textCell(m.device), integerCell(m.allocated_bytes),
                             integerCell(m.freed_bytes), integerCell(m.records)});
    return spec;
}

} // namespace ts
