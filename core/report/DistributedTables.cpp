#include "report/DistributedTables.h"

#include <algorithm>
#include <cmath>

#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …
namespace col = distributed_column;

Column text(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip};
}
Column integer(const char* key, const char* title, const char* tooltip,
               ColumnUnit unit = ColumnUnit::None) {
    return Column{key, title, tooltip, ColumnKind::Integer, false, unit};
}
Column micros(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, ColumnKind::Number, false, ColumnUnit::Microseconds};
}

Cell microsCell(double ns) {
    return table::numberCell(microsText(ns), ns / 1000);
}

// Python's round(): half to even (the plugin's averages per call).
Cell roundedCell(double value) {
    return table::numberCell(std::to_string(static_cast<int64_t>(std::nearbyint(value))), value);
}

// The collectives' split is unknown (empty) in a step without them.
Cell transferCell(const DistributedStep& s, int64_t ns) {
    return s.has_communication ? microsCell(double(ns)) : Cell{};
}

std::vector<Column> splitColumns() {
    return {
        micros(col::kComputation, "Computation (us)",
               "Kernels (host operators without kernels), less the overlap"),
        micros(col::kOverlapping, "Overlapping (us)", "Computation and communication at once"),
        micros(col::kCommunication, "Communication (us)", "Collectives, less the overlap"),
        micros(col::kOther, "Other (us)", "Neither: the host launching, waiting, loading data"),
        micros("total_us", "Step (us)", "The step's length on this rank"),
        micros(col::kDataTransfer, "Data Transfer (us)",
               "Collectives' time moving data (as fast as the fastest rank)"),
        micros(col::kSynchronizing, "Synchronizing (us)",
               "Collectives' time waiting for the other ranks"),
    };
}

void addSplit(std::vector<Cell>& row, const DistributedStep& s) {
    row.insert(row.end(),
               {microsCell(double(s.computation_ns)), microsCell(double(s.overlapping_ns)),
                microsCell(double(s.communication_ns)), microsCell(double(s.other_ns)),
                microsCell(double(s.total_ns)), transferCell(s, s.data_transfer_ns),
                transferCell(s, s.synchronizing_ns)});
}

std::string deviceNames(const RankView& rank) {
    std::string names;
    for (const RankDevice& d : rank.devices)
        names += (names.empty() ? "GPU" : ", GPU") + std::to_string(d.id) +
                 (d.name.empty() ? "" : " " + d.name);
    return names.empty() ? "CPU" : names;
}

// The devices with their memory and compute capability, where known.
std::string deviceDetails(const RankView& r) {
    if (r.devices.empty()) return "CPU only";
    std::string out;
    for (const RankDevice& d : r.devices) {
        out += (out.empty() ? "" : "; ") + std::string("GPU") + std::to_string(d.id);
        if (!d.name.empty())
            out += " " + d.name + ", " + fixed(double(d.memory_bytes) / (1 << 30), 1) + " GB, sm_" +
                   std::to_string(d.compute_major) + std::to_string(d.compute_minor);
    }
    return out;
}

RankRow rankRow(const DistributedView& view, const RankView& rank, const std::string& label) {
    RankRow row;
    row.rank = rank.rank;
    row.worker = rank.worker;
    row.node = rank.node;
    row.process = rank.process;
    row.library = rank.library;
    row.devices = deviceNames(rank);
    row.steps = rank.steps.size();
    row.collectives = rank.collectives;
    row.step.label = label;
    if (label == rank.average.label) row.step = rank.average;
    for (const DistributedStep& step : rank.steps)
        if (step.label == label) row.step = step;
    for (const Straggler& s : view.stragglers)
        row.straggler = row.straggler || s.rank == rank.rank;
    return row;
}

} // namespace

std::vector<RankRow> rankRows(const DistributedView& view, const std::string& label) {
    std::vector<RankRow> rows;
    for (const RankView& rank : view.ranks)
        rows.push_back(rankRow(view, rank, label));
    return rows;
}

table::TableSpec rankTable(const std::vector<RankRow>& rows) {
    table::TableSpec spec;
    spec.title = "Ranks";
    spec.columns = {
        integer(col::kRank, "Rank", "From the trace's distributedInfo, else the file name"),
        text("worker", "Worker", "The trace file's worker name"),
        text("node", "Node", "The host (the worker name before its last _)"),
        text("process", "Process", "The process on the node"),
        text("devices", "Devices", "The GPUs the rank used"),
        text("library", "Library", "The collectives' library"),
        integer("steps", "Steps", "Steps in the span"),
    };
    for (Column& c : splitColumns())
        spec.columns.push_back(std::move(c));
    spec.columns.push_back(
        integer("collectives", "Collectives", "Communication calls in the span"));
    for (const RankRow& r : rows) {
        std::vector<Cell> row{
            table::numberCell(std::to_string(r.rank) + (r.straggler ? " (straggler)" : ""),
                              double(r.rank)),
            table::textCell(r.worker),
            table::textCell(r.node),
            table::textCell(r.process),
            table::textCell(r.devices),
            table::textCell(r.library),
            table::integerCell(int64_t(r.steps))};
        addSplit(row, r.step);
        row.push_back(table::integerCell(int64_t(r.collectives)));
        spec.rows.push_back(std::move(row));
    }
    return spec;
}

table::TableSpec stepTable(const std::vector<DistributedStep>& steps) {
    table::TableSpec spec;
    spec.title = "Steps";
    spec.columns = {text("step", "Step", "The ProfilerStep number; \"all\": the average step")};
    for (Column& c : splitColumns())
        spec.columns.push_back(std::move(c));
    for (const DistributedStep& s : steps) {
        std::vector<Cell> row{table::textCell(s.label)};
        addSplit(row, s);
        spec.rows.push_back(std::move(row));
    }
    return spec;
}

table::TableSpec commOpTable(const std::vector<CommOpRow>& rows) {
    table::TableSpec spec;
    spec.title = "Communication operations";
    const ColumnUnit bytes = ColumnUnit::Bytes;
    spec.columns = {
        text(col::kName, "Name", "The collective"),
        integer("calls", "Calls", "Calls in the span"),
        integer(col::kTotalBytes, "Total Size (bytes)", "Bytes of the inputs, over all calls",
                bytes),
        Column{"avg_bytes", "Avg Size (bytes)", "Bytes per call", ColumnKind::Number, false, bytes},
        micros(col::kTotalLatency, "Total Latency (us)",
               "From the call to the end of its kernels, merged"),
        micros("avg_latency_us", "Avg Latency (us)", "Latency per call"),
        micros(col::kDataTransfer, "Data Transfer (us)", "Time moving data, merged"),
        micros("avg_data_transfer_us", "Avg Data Transfer (us)", "Data transfer per call"),
    };
    for (const CommOpRow& r : rows)
        spec.rows.push_back({table::textCell(r.name), table::integerCell(r.calls),
                             table::integerCell(r.total_bytes), roundedCell(r.avgBytes()),
                             microsCell(double(r.total_latency_ns)),
                             roundedCell(r.avgLatencyNs() / 1000),
                             microsCell(double(r.total_data_transfer_ns)),
                             roundedCell(r.avgDataTransferNs() / 1000)});
    return spec;
}

table::TableSpec deviceTable(const DistributedView& view) {
    table::TableSpec spec;
    spec.title = "Devices";
    spec.columns = {integer(col::kRank, "Rank", "The rank"), text("node", "Node", "The host"),
                    text("process", "Process", "The process on the node"),
                    text("backend", "Backend", "distributedInfo's backend; - unknown"),
                    text("devices", "Devices", "The GPUs, their memory and compute capability")};
    for (const RankView& r : view.ranks)
        spec.rows.push_back({table::integerCell(r.rank), table::textCell(r.node),
                             table::textCell(r.process),
                             table::textCell(r.backend.empty() ? "-" : r.backend),
                             table::textCell(deviceDetails(r))});
    return spec;
}

namespace {

std::string ranksText(const std::vector<int64_t>& ranks) {
    std::string out;
    for (int64_t r : ranks)
        out += (out.empty() ? "" : " ") + std::to_string(r);
    return out;
}

} // namespace

table::TableSpec spreadTable(const std::vector<MetricSpread>& spreads) {
    table::TableSpec spec;
    spec.title = "Across ranks";
    spec.columns = {text("metric", "Per step", "What is measured, each rank's average step"),
                    integer("ranks", "Ranks", "Ranks with steps"),
                    micros("min_us", "Min (us)", "The lowest rank's"),
                    micros("median_us", "Median (us)", "Half the ranks are above"),
                    micros("p95_us", "p95 (us)", "95% of the ranks are at or below"),
                    micros("max_us", "Max (us)", "The highest rank's"),
                    text("lowest", "Lowest ranks", "The ranks with the least, least first"),
                    text("highest", "Highest ranks", "The ranks with the most, most first")};
    for (const MetricSpread& m : spreads)
        spec.rows.push_back({table::textCell(m.label), table::integerCell(int64_t(m.ranks)),
                             microsCell(double(m.min_ns)), microsCell(double(m.median_ns)),
                             microsCell(double(m.p95_ns)), microsCell(double(m.max_ns)),
                             table::textCell(ranksText(m.lowest)),
                             table::textCell(ranksText(m.highest))});
    return spec;
}

table::TableSpec arrivalTable(const DistributedView& view, size_t limit) {
    std::vector<const RankView*> order;
    for (const RankView& r : view.ranks)
        order.push_back(&r);
    std::stable_sort(order.begin(), order.end(), [](const RankView* a, const RankView* b) {
        return a->caused_wait_ns > b->caused_wait_ns;
    });
    table::TableSpec spec;
    spec.title = "Who the others wait for";
    spec.columns = {integer(col::kRank, "Rank", "The rank"),
                    integer("last_arrivals", "Last at", "Collectives it arrived last at"),
                    micros("caused_wait_us", "Others wait for it (us)",
                           "The other ranks' mean wait at those calls, summed"),
                    micros("waited_us", "It waits (us)",
                           "Its own wait in the collectives matched on every rank, summed"),
                    micros("clock_offset_us", "Clock offset (us)",
                           "Its clock against the lowest rank's (the median gap between the ends "
                           "of the same collectives)")};
    for (const RankView* r : order) {
        if (limit && spec.rows.size() >= limit) break;
        spec.rows.push_back(
            {table::integerCell(r->rank), table::integerCell(int64_t(r->last_arrivals)),
             microsCell(double(r->caused_wait_ns)), microsCell(double(r->waited_ns)),
             microsCell(double(r->clock_offset_ns))});
    }
    return spec;
}

} // namespace ts
