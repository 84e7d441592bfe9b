#include "report/DistributedReport.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"
#include "util/Csv.h"

namespace ts {

namespace {

using json = nlohmann::json;

size_t rowCount(size_t size, size_t limit) {
    return limit == 0 ? size : std::min(size, limit);
}

// Python's round(): half to even (the plugin's averages per call).
std::string rounded(double value) {
    return std::to_string(static_cast<int64_t>(std::nearbyint(value)));
}

std::string us(int64_t ns) {
    return microsText(double(ns));
}

std::string transferCell(const DistributedStep& s, int64_t ns) {
    return s.has_communication ? us(ns) : "";
}

std::vector<std::string> stepCells(const DistributedStep& s) {
    return {us(s.computation_ns),
            us(s.overlapping_ns),
            us(s.communication_ns),
            us(s.other_ns),
            us(s.total_ns),
            transferCell(s, s.data_transfer_ns),
            transferCell(s, s.synchronizing_ns)};
}

const std::vector<std::string> kStepHeaders{"Computation",  "Overlapping", "Communication",
                                            "Other",        "Step",        "Data Transfer",
                                            "Synchronizing"};

std::vector<std::string> opCells(const CommOpRow& r) {
    return {r.name,
            std::to_string(r.calls),
            std::to_string(r.total_bytes),
            rounded(r.avgBytes()),
            us(r.total_latency_ns),
            rounded(r.avgLatencyNs() / 1000),
            us(r.total_data_transfer_ns),
            rounded(r.avgDataTransferNs() / 1000)};
}

const std::vector<std::string> kOpHeaders{
    "Name",        "Calls",         "Total Size (bytes)", "Avg Size (bytes)", "Total Latency (us)",
    "Avg Latency", "Data Transfer", "Avg Data Transfer"};

std::string header(const DistributedView& v) {
    std::string libraries;
    for (const RankView& r : v.ranks)
        if (!r.library.empty() && libraries.find(r.library) == std::string::npos)
            libraries += (libraries.empty() ? "" : ", ") + r.library;
    return "Distributed view: span " + std::to_string(v.span) + " of " +
           std::to_string(v.span_count) + ", " + std::to_string(v.ranks.size()) + " ranks" +
           (libraries.empty() ? "" : " (" + libraries + ")") + "\n";
}

std::string deviceText(const RankView& r) {
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

} // namespace

std::string distributedText(const DistributedView& v, size_t limit) {
    std::string out = header(v);
    out += "\nAverage per step (us):\n";
    TableRows avg;
    for (const RankView& r : v.ranks) {
        std::vector<std::string> row{std::to_string(r.rank), r.worker,
                                     std::to_string(r.steps.size())};
        for (std::string& c : stepCells(r.average))
            row.push_back(std::move(c));
        avg.push_back(std::move(row));
    }
    std::vector<std::string> headers{"Rank", "Worker", "Steps"};
    headers.insert(headers.end(), kStepHeaders.begin(), kStepHeaders.end());
    out += plainTable(headers, avg);
    out += "\nPer step (us):\n";
    TableRows per_step;
    for (const RankView& r : v.ranks)
        for (const DistributedStep& s : r.steps) {
            std::vector<std::string> row{s.label, std::to_string(r.rank)};
            for (std::string& c : stepCells(s))
                row.push_back(std::move(c));
            per_step.push_back(std::move(row));
        }
    std::vector<std::string> step_headers{"Step", "Rank"};
    step_headers.insert(step_headers.end(), kStepHeaders.begin(), kStepHeaders.end());
    out += plainTable(step_headers, per_step);
    for (const RankView& r : v.ranks) {
        out += "\nCommunication operations, rank " + std::to_string(r.rank) + " (" + r.worker +
               "; times in us):\n";
        TableRows ops;
        for (size_t i = 0; i < rowCount(r.ops.size(), limit); ++i)
            ops.push_back(opCells(r.ops[i]));
        out += plainTable(kOpHeaders, ops);
    }
    out += "\nDevices:\n";
    TableRows devices;
    for (const RankView& r : v.ranks)
        devices.push_back({std::to_string(r.rank), r.node, r.process,
                           r.backend.empty() ? "-" : r.backend, deviceText(r)});
    out += plainTable({"Rank", "Node", "Process", "Backend", "Devices"}, devices);
    out += "\nImbalance: the busiest rank computes " + percent(v.computation_imbalance) +
           " more than the mean rank; step times differ by up to " + us(v.step_time_spread_ns) +
           " us.\n";
    if (v.stragglers.empty())
        out += "Stragglers: none (no rank computes more than " + percent(kStragglerStepShare, 0) +
               " of a step longer than the others).\n";
    for (const Straggler& s : v.stragglers)
        out += "Straggler: " + s.message + ".\n";
    for (const std::string& note : v.notes)
        out += "note: " + note + "\n";
    return out;
}

std::string distributedCsv(const DistributedView& v, size_t limit) {
    std::string out =
        csvLine({"rank", "worker", "step", "computation_us", "overlapping_us", "communication_us",
                 "other_us", "step_us", "data_transfer_us", "synchronizing_us"}) +
        "\n";
    for (const RankView& r : v.ranks) {
        auto line = [&](const DistributedStep& s) {
            std::vector<std::string> row{std::to_string(r.rank), r.worker, s.label};
            for (std::string& c : stepCells(s))
                row.push_back(std::move(c));
            out += csvLine(row) + "\n";
        };
        for (const DistributedStep& s : r.steps)
            line(s);
        line(r.average);
    }
    out +=
        "\n" +
        csvLine({"rank", "worker", "name", "calls", "total_bytes", "avg_bytes", "total_latency_us",
                 "avg_latency_us", "data_transfer_us", "avg_data_transfer_us"}) +
        "\n";
    for (const RankView& r : v.ranks)
        for (size_t i = 0; i < rowCount(r.ops.size(), limit); ++i) {
            std::vector<std::string> row = opCells(r.ops[i]);
            row.insert(row.begin(), {std::to_string(r.rank), r.worker});
            out += csvLine(row) + "\n";
        }
    out +=
        "\n" +
        csvLine({"rank", "worker", "computation_us", "others_computation_us", "excess_us",
                 "step_us", "others_step_us", "others_synchronizing_us", "own_synchronizing_us"}) +
        "\n";
    for (const Straggler& s : v.stragglers)
        out += csvLine({std::to_string(s.rank), s.worker, us(s.computation_ns),
                        us(s.others_computation_ns), us(s.excessNs()), us(s.step_ns),
                        us(s.others_step_ns), us(s.others_synchronizing_ns),
                        us(s.own_synchronizing_ns)}) +
               "\n";
    return out;
}

namespace {

double usValue(int64_t ns) {
    return double(ns) / 1000;
}

json stepJson(const DistributedStep& s) {
    return {{"step", s.label},
            {"computation_us", usValue(s.computation_ns)},
            {"overlapping_us", usValue(s.overlapping_ns)},
            {"communication_us", usValue(s.communication_ns)},
            {"other_us", usValue(s.other_ns)},
            {"total_us", usValue(s.total_ns)},
            {"data_transfer_us", s.has_communication ? json(usValue(s.data_transfer_ns)) : json()},
            {"synchronizing_us", s.has_communication ? json(usValue(s.synchronizing_ns)) : json()}};
}

json rankJson(const RankView& r, size_t limit) {
    json steps = json::array(), ops = json::array(), devices = json::array();
    for (const DistributedStep& s : r.steps)
        steps.push_back(stepJson(s));
    for (size_t i = 0; i < rowCount(r.ops.size(), limit); ++i) {
        const CommOpRow& o = r.ops[i];
        ops.push_back({{"name", o.name},
                       {"calls", o.calls},
                       {"total_bytes", o.total_bytes},
                       {"avg_bytes", o.avgBytes()},
                       {"total_latency_us", usValue(o.total_latency_ns)},
                       {"avg_latency_us", o.avgLatencyNs() / 1000},
                       {"data_transfer_us", usValue(o.total_data_transfer_ns)},
                       {"avg_data_transfer_us", o.avgDataTransferNs() / 1000}});
    }
    for (const RankDevice& d : r.devices)
        devices.push_back({{"id", d.id},
                           {"name", d.name},
                           {"memory_bytes", d.memory_bytes},
                           {"compute_capability", std::to_string(d.compute_major) + "." +
                                                      std::to_string(d.compute_minor)}});
    return {{"rank", r.rank},
            {"rank_source", toString(r.rank_source)},
            {"worker", r.worker},
            {"path", r.path},
            {"node", r.node},
            {"process", r.process},
            {"backend", r.backend},
            {"world_size", r.world_size >= 0 ? json(r.world_size) : json()},
            {"library", r.library},
            {"uses_gpu", r.uses_gpu},
            {"devices", std::move(devices)},
            {"collectives", r.collectives},
            {"outside_steps", r.outside_steps},
            {"average", stepJson(r.average)},
            {"steps", std::move(steps)},
            {"operations", std::move(ops)}};
}

} // namespace

json distributedJson(const DistributedView& v, size_t limit) {
    json ranks = json::array(), stragglers = json::array();
    for (const RankView& r : v.ranks)
        ranks.push_back(rankJson(r, limit));
    for (const Straggler& s : v.stragglers)
        stragglers.push_back({{"rank", s.rank},
                              {"worker", s.worker},
                              {"computation_us", usValue(s.computation_ns)},
                              {"others_computation_us", usValue(s.others_computation_ns)},
                              {"excess_us", usValue(s.excessNs())},
                              {"excess_pct", 100 * s.excessFraction()},
                              {"step_us", usValue(s.step_ns)},
                              {"others_step_us", usValue(s.others_step_ns)},
                              {"others_synchronizing_us", usValue(s.others_synchronizing_ns)},
                              {"own_synchronizing_us", usValue(s.own_synchronizing_ns)},
                              {"message", s.message}});
    return {{"span", v.span},
            {"span_count", v.span_count},
            {"plugin_compatible", v.plugin_compatible},
            {"computation_imbalance", v.computation_imbalance},
            {"step_time_spread_us", usValue(v.step_time_spread_ns)},
            {"notes", v.notes},
            {"ranks", std::move(ranks)},
            {"stragglers", std::move(stragglers)}};
}

} // namespace ts
