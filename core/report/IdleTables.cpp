#include "report/IdleTables.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "report/DiagnosisCells.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …
using diagnosis::gpuColumn;
using diagnosis::micros;
using diagnosis::rankColumn;
using diagnosis::streamColumn;

std::vector<Column> streamColumns() {
    return {rankColumn(), gpuColumn(), streamColumn()};
}

std::vector<Cell> streamCells(int64_t rank, const StreamIdle& s) {
    return {integerCell(rank), integerCell(s.gpu), integerCell(s.stream)};
}

double share(int64_t part, int64_t total) {
    return total > 0 ? double(part) / double(total) : 0;
}

nlohmann::json statsJson(const IntervalStats& s) {
    const auto value = [](double ns) {
        return std::isnan(ns) ? nlohmann::json(nullptr) : nlohmann::json(ns / 1000);
    };
    nlohmann::json j = {{"count", s.count}};
    if (s.count == 0) return j;
    j.update({{"mean_us", value(s.mean)},
              {"std_us", value(s.std)},
              {"min_us", value(s.min)},
              {"p25_us", value(s.p25)},
              {"p50_us", value(s.p50)},
              {"p75_us", value(s.p75)},
              {"max_us", value(s.max)}});
    return j;
}

} // namespace

table::TableSpec temporalTable(const std::vector<TemporalBreakdown>& ranks) {
    TableSpec spec;
    spec.title = "Temporal breakdown";
    spec.columns = {
        rankColumn(),
        diagnosis::usColumn("idle_us", "Idle (us)", "No stream of the GPU busy"),
        diagnosis::usColumn("compute_us", "Compute (us)", "Some computation kernel running"),
        diagnosis::usColumn("non_compute_us", "Non-compute (us)",
                            "Busy with communication, copies, sets or synchronisation only"),
        diagnosis::usColumn(
            "kernel_us", "Window (us)",
            "From the first device event's start to the last one's end (HTA's kernel_time)"),
        diagnosis::percentColumn("idle_pct", "Idle (%)", "Of the window"),
        diagnosis::percentColumn("compute_pct", "Compute (%)", "Of the window"),
        diagnosis::percentColumn("non_compute_pct", "Non-compute (%)", "Of the window"),
    };
    for (const TemporalBreakdown& t : ranks)
        spec.rows.push_back({integerCell(t.rank), micros(double(t.idle_ns)),
                             micros(double(t.compute_ns)), micros(double(t.non_compute_ns)),
                             micros(double(t.window_ns)),
                             diagnosis::percentCell(100 * t.share(t.idle_ns)),
                             diagnosis::percentCell(100 * t.share(t.compute_ns)),
                             diagnosis::percentCell(100 * t.share(t.non_compute_ns))});
    return spec;
}

table::TableSpec idleTable(const std::vector<IdleBreakdown>& ranks) {
    TableSpec spec;
    spec.title = "Idle time by stream";
    spec.columns = streamColumns();
    spec.columns.insert(
        spec.columns.end(),
        {diagnosis::usColumn(
             "host_wait_us", "Host Wait (us)",
             "Gaps before work launched after the previous work on the stream had ended"),
         diagnosis::usColumn("kernel_wait_us", "Kernel Wait (us)",
                             "Gaps below the threshold before work launched in time"),
         diagnosis::usColumn("other_us", "Other (us)", "Longer gaps before work launched in time"),
         diagnosis::usColumn("idle_us", "Idle (us)", "Every gap between the stream's work"),
         diagnosis::percentColumn("host_wait_pct", "Host Wait (%)", "Of the stream's idle time"),
         diagnosis::percentColumn("kernel_wait_pct", "Kernel Wait (%)",
                                  "Of the stream's idle time"),
         diagnosis::percentColumn("other_pct", "Other (%)", "Of the stream's idle time")});
    for (const IdleBreakdown& r : ranks)
        for (const StreamIdle& s : r.streams) {
            std::vector<Cell> row = streamCells(r.rank, s);
            for (int64_t ns : s.idle_ns)
                row.push_back(micros(double(ns)));
            row.push_back(micros(double(s.totalNs())));
            for (int64_t ns : s.idle_ns)
                row.push_back(diagnosis::percentCell(100 * share(ns, s.totalNs())));
            spec.rows.push_back(std::move(row));
        }
    return spec;
}

table::TableSpec idleIntervalTable(const std::vector<IdleBreakdown>& ranks) {
    TableSpec spec;
    spec.title = "Idle intervals";
    spec.columns = streamColumns();
    spec.columns.insert(spec.columns.end(),
                        {Column{"category", "Category", "host_wait, kernel_wait or other"},
                         Column{"count", "Count", "Gaps of this cause", ColumnKind::Integer},
                         diagnosis::usColumn("mean_us", "Mean (us)", ""),
                         diagnosis::usColumn("std_us", "Std (us)", "Sample"),
                         diagnosis::usColumn("min_us", "Min (us)", ""),
                         diagnosis::usColumn("p25_us", "25% (us)", ""),
                         diagnosis::usColumn("p50_us", "Median (us)", ""),
                         diagnosis::usColumn("p75_us", "75% (us)", ""),
                         diagnosis::usColumn("max_us", "Max (us)", "")});
    for (const IdleBreakdown& r : ranks)
        for (const StreamIdle& s : r.streams)
            for (size_t c = 0; c < kIdleCauseCount; ++c) {
                const IntervalStats& i = s.intervals[c];
                if (i.count == 0) continue;
                std::vector<Cell> row = streamCells(r.rank, s);
                row.insert(row.end(), {textCell(toString(IdleCause(c))), integerCell(i.count),
                                       micros(i.mean), micros(i.std), micros(i.min), micros(i.p25),
                                       micros(i.p50), micros(i.p75), micros(i.max)});
                spec.rows.push_back(std::move(row));
            }
    return spec;
}

std::vector<std::string> activityNotes(const DeviceActivities& activity) {
    return activityNotes(activityFacts(activity));
}

std::vector<std::string> activityNotes(const ActivityFacts& a) {
    std::vector<std::string> notes;
    if (!a.any)
        notes.push_back("the trace has no kernels, copies or sets on a GPU stream: record it "
                        "with torch.profiler and ProfilerActivity.CUDA");
    if (a.any && !a.linked)
        notes.push_back("no device work is linked to the runtime call that launched it (the "
                        "trace has no cuda_runtime events, or no correlation ids): host wait, "
                        "launches and queue length need them");
    // A trace without device work (a CPU-only profile) has nothing to leave out.
    if (a.last_step_dropped && (a.any || a.dropped > 0))
        notes.push_back("the last ProfilerStep is left out, as HTA does (the profiler often cuts "
                        "it short): " +
                        std::to_string(a.dropped) +
                        " device events launched from its start, or without a launch in the "
                        "trace");
    return notes;
}

nlohmann::json temporalJson(const std::vector<TemporalBreakdown>& ranks) {
    return {{"ranks", rowsJson(temporalTable(ranks))}};
}

nlohmann::json idleJson(const std::vector<IdleBreakdown>& ranks) {
    nlohmann::json out = nlohmann::json::array();
    double threshold_us = 0;
    for (const IdleBreakdown& r : ranks) {
        threshold_us = double(r.kernel_wait_ns) / 1000;
        const nlohmann::json rows = rowsJson(idleTable({r}), "rank");
        nlohmann::json streams = nlohmann::json::array();
        for (size_t i = 0; i < r.streams.size(); ++i) {
            nlohmann::json s = rows[i];
            nlohmann::json intervals = nlohmann::json::object();
            for (size_t c = 0; c < kIdleCauseCount; ++c)
                intervals[toString(IdleCause(c))] = statsJson(r.streams[i].intervals[c]);
            s["intervals"] = std::move(intervals);
            streams.push_back(std::move(s));
        }
        out.push_back({{"rank", r.rank}, {"streams", std::move(streams)}});
    }
    return {{"kernel_wait_threshold_us", threshold_us}, {"ranks", std::move(out)}};
}

} // namespace ts
