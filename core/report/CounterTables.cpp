#include "report/CounterTables.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "report/DiagnosisCells.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …
using diagnosis::gpuColumn;
using diagnosis::micros;
using diagnosis::rankColumn;
using diagnosis::streamColumn;

Column numberColumn(std::string key, std::string title, std::string tooltip = "") {
    return Column{key, title, tooltip, ColumnKind::Number};
}

// A statistic with three decimals, or three significant digits below 0.01
// (a slow copy's 0.000969 GB/s); empty for NaN (one point's deviation).
Cell valueCell(double v) {
    if (std::isnan(v)) return Cell{};
    if (v == 0 || std::fabs(v) >= 0.01) return numberCell(fixed(v, 3), v);
    char text[32];
    std::snprintf(text, sizeof(text), "%.3g", v);
    return numberCell(text, v);
}

// The describe() columns, each key ending in `suffix` ("" or "_gbps").
std::vector<Column> statsColumns(const std::string& suffix, const std::string& unit) {
    const char* names[] = {"mean", "std", "min", "p25", "p50", "p75", "max"};
    const char* titles[] = {"Mean", "Std", "Min", "25%", "Median", "75%", "Max"};
    std::vector<Column> out;
    for (size_t i = 0; i < std::size(names); ++i)
        out.push_back(Column{names[i] + suffix, titles[i] + unit,
                             i == 1 ? "Sample standard deviation" : "", ColumnKind::Number});
    return out;
}

std::vector<Cell> statsCells(const Description& d) {
    return {valueCell(d.mean), valueCell(d.std), valueCell(d.min), valueCell(d.p25),
            valueCell(d.p50),  valueCell(d.p75), valueCell(d.max)};
}

} // namespace

table::TableSpec queueLengthTable(const std::vector<QueueLength>& ranks) {
    TableSpec spec;
    spec.title = "Queue length by stream";
    spec.columns = {
        rankColumn(), gpuColumn(), streamColumn(),
        Column{"count", "Points", "Launches and starts: a point each", ColumnKind::Integer}};
    for (Column& c : statsColumns("", ""))
        spec.columns.push_back(c);
    spec.columns.push_back(
        numberColumn("time_mean", "Mean over time", "Weighted by how long each length held"));
    spec.columns.push_back(
        diagnosis::usColumn("blocked_on_full_queue_us", "Full (us)",
                            "At the maximum queue length or more: the launching thread blocks"));
    spec.columns.push_back(
        diagnosis::percentColumn("blocked_pct", "Full (%)", "Of the trace's span"));
    for (const QueueLength& r : ranks)
        for (const StreamQueue& s : r.streams) {
            std::vector<Cell> row{integerCell(r.rank), integerCell(s.gpu), integerCell(s.stream),
                                  integerCell(s.stats.count)};
            for (Cell& c : statsCells(s.stats))
                row.push_back(std::move(c));
            row.push_back(valueCell(s.time_mean));
            row.push_back(micros(double(s.blocked_ns)));
            row.push_back(diagnosis::percentCell(100 * s.blocked_share));
            spec.rows.push_back(std::move(row));
        }
    return spec;
}

table::TableSpec memoryBandwidthTable(const std::vector<MemoryBandwidth>& ranks) {
    TableSpec spec;
    spec.title = "Memory bandwidth by kind";
    spec.columns = {
        rankColumn(),
        Column{"kind", "Kind", "Memcpy HtoD, DtoH, DtoD, ..., Memset"},
        Column{"copies", "Copies", "", ColumnKind::Integer},
        Column{"bytes", "Bytes", "Moved or set", ColumnKind::Number, false, ColumnUnit::Bytes},
        diagnosis::usColumn("busy_us", "Busy (us)", "Some copy of this kind running"),
        numberColumn("busy_mean_gbps", "Mean while busy (GB/s)",
                     "Weighted by time while a copy of this kind runs"),
        Column{"points", "Points", "Changes with a bandwidth above 0 (HTA's rows)",
               ColumnKind::Integer}};
    for (Column& c : statsColumns("_gbps", " (GB/s)"))
        spec.columns.push_back(c);
    for (const MemoryBandwidth& r : ranks)
        for (const MemoryKindBandwidth& k : r.kinds) {
            std::vector<Cell> row{integerCell(r.rank),       textCell(k.kind),
                                  integerCell(k.copies),     numberCell(fixed(k.bytes, 0), k.bytes),
                                  micros(double(k.busy_ns)), valueCell(k.busy_mean_gbps),
                                  integerCell(k.stats.count)};
            for (Cell& c : statsCells(k.stats))
                row.push_back(std::move(c));
            spec.rows.push_back(std::move(row));
        }
    return spec;
}

nlohmann::json queueLengthJson(const std::vector<QueueLength>& ranks) {
    nlohmann::json out = nlohmann::json::array();
    int32_t max_length = QueueLengthOptions{}.max_queue_length;
    for (const QueueLength& r : ranks) {
        max_length = r.max_queue_length;
        nlohmann::json streams = rowsJson(queueLengthTable({r}), "rank");
        out.push_back({{"rank", r.rank},
                       {"span_us", double(r.span_ns) / 1000},
                       {"streams", std::move(streams)}});
    }
    return {{"max_queue_length", max_length}, {"ranks", std::move(out)}};
}

nlohmann::json memoryBandwidthJson(const std::vector<MemoryBandwidth>& ranks) {
    nlohmann::json out = nlohmann::json::array();
    for (const MemoryBandwidth& r : ranks) {
        nlohmann::json kinds = rowsJson(memoryBandwidthTable({r}), "rank");
        out.push_back({{"rank", r.rank}, {"kinds", std::move(kinds)}});
    }
    return {{"ranks", std::move(out)}};
}

} // namespace ts
