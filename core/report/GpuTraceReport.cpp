#include "report/GpuTraceReport.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "report/GpuTables.h"
#include "report/MarkdownTable.h"
#include "report/StepTables.h"

namespace ts {

namespace {

using json = nlohmann::json;

std::string pct(double fraction) {
    return fixed(100 * fraction, 2) + "%";
}

std::string optionalPct(const std::optional<double>& v, double scale) {
    return v ? fixed(*v * scale, 2) + "%" : "-";
}

json optionalJson(const std::optional<double>& v, double scale) {
    return v ? json(*v * scale) : json(nullptr);
}

// The step table as the plugin shows it: its roles, then the total.
table::TableSpec shownStepTable(const GpuOverview& o) {
    std::vector<GpuRole> roles = shownRoles(o);
    roles.push_back(GpuRole::Total);
    return stepTimeTable(o, roles);
}

std::string gpuSummaryText(const GpuMetrics& m) {
    std::string out;
    for (const GpuDeviceSummary& g : m.gpus) {
        out += "GPU " + std::to_string(g.id) + ":";
        if (g.has_properties)
            out += " " + g.name + ", " + fixed(double(g.memory_bytes) / (1024.0 * 1024 * 1024), 2) +
                   " GB, compute capability " + std::to_string(g.compute_major) + "." +
                   std::to_string(g.compute_minor);
        out += "\n  GPU utilization            " + pct(g.utilization) + "\n";
        out += "  Est. SM efficiency         " + optionalPct(g.sm_efficiency, 100) + "\n";
        out += "  Est. achieved occupancy    " + optionalPct(g.occupancy, 1) + "\n";
        out += "  Kernel time on Tensor Cores " + optionalPct(g.tensor_core_ratio, 100) + "\n";
    }
    return out;
}

} // namespace

std::string microsText(double ns) {
    // Whole microseconds (most costs) without printf: it was most of the
    // Overview's output time on a trace of 16,000 steps. Same text.
    if (std::fabs(ns) < 1e15 && std::fmod(ns, 1000) == 0) return std::to_string(int64_t(ns) / 1000);
    const double us = ns / 1000;
    if (std::fabs(us - std::round(us)) < 1e-9) return fixed(std::round(us), 0);
    return fixed(us, 3);
}

std::string gpuOverviewText(const GpuTraceAnalysis& a) {
    const GpuOverview& o = a.overview;
    std::string out = "Overview: " + std::to_string(o.steps.size()) + " steps, average step " +
                      fixed(o.average_ns[size_t(GpuRole::Total)] / 1000, 1) + " us\n";
    out += table::toText(shownStepTable(o));
    out += "\nAverage step:\n";
    for (GpuRole r : shownRoles(o))
        out += "  " + std::string(toString(r)) + ": " + fixed(o.average_ns[size_t(r)] / 1000, 1) +
               " us (" + pct(o.share(r)) + ")\n";
    if (!a.metrics.gpus.empty()) out += "\nGPU summary:\n" + gpuSummaryText(a.metrics);
    out += "\nRecommendations:\n";
    if (a.recommendations.empty()) out += "  none\n";
    for (const TraceRecommendation& r : a.recommendations)
        out += "  - " + r.text + "\n";
    return out;
}

std::string gpuOverviewCsv(const GpuTraceAnalysis& a) {
    return table::toDataCsv(stepTimeTable(a.overview, everyRole()));
}

json gpuOverviewJson(const GpuTraceAnalysis& a) {
    auto costs = [](auto value) {
        json j = json::object();
        for (size_t r = 0; r < kGpuRoleCount; ++r)
            j[std::string(keyOf(GpuRole(r))) + "_us"] = value(r);
        return j;
    };
    table::TableSpec step_table = stepTimeTable(a.overview, everyRole());
    step_table.rows.pop_back(); // the average, an object of its own
    json steps = table::rowsJson(step_table);
    json gpu = {{"name", nullptr},
                {"utilization_pct", nullptr},
                {"sm_efficiency_pct", nullptr},
                {"achieved_occupancy_pct", nullptr},
                {"tensor_core_pct", nullptr}};
    if (!a.metrics.gpus.empty()) { // the first GPU (traces of one process use one)
        const GpuDeviceSummary& g = a.metrics.gpus.front();
        gpu["name"] = g.has_properties ? json(g.name) : json("GPU " + std::to_string(g.id));
        gpu["utilization_pct"] = 100 * g.utilization;
        gpu["sm_efficiency_pct"] = optionalJson(g.sm_efficiency, 100);
        gpu["achieved_occupancy_pct"] = optionalJson(g.occupancy, 1);
        gpu["tensor_core_pct"] = optionalJson(g.tensor_core_ratio, 100);
    }
    json recommendations = json::array();
    for (const TraceRecommendation& r : a.recommendations)
        recommendations.push_back(r.text);
    return {{"steps", std::move(steps)},
            {"average", costs([&](size_t r) { return a.overview.average_ns[r] / 1000; })},
            {"gpu", std::move(gpu)},
            {"recommendations", std::move(recommendations)}};
}

namespace {

// `spec` without its empty optional columns, `limit` rows at most.
table::TableSpec printed(const table::TableSpec& spec, size_t limit) {
    return table::firstRows(table::shown(spec), limit);
}

} // namespace

std::string deviceOpsText(const DeviceOpTable& table, size_t limit) {
    const table::TableSpec spec = deviceOpTableSpec(table);
    return spec.title + ":\n" + table::toText(printed(spec, limit));
}

std::string deviceOpsCsv(const DeviceOpTable& table, size_t limit) {
    return table::toCsv(printed(deviceOpTableSpec(table), limit));
}

json deviceOpsJson(const DeviceOpTable& table, size_t limit) {
    return {{"sort", table.by_device ? "device_self_us" : "host_self_us"},
            {"rows", table::rowsJson(table::firstRows(deviceOpTableSpec(table), limit))}};
}

std::string kernelsText(const KernelTables& tables, bool by_op, size_t limit) {
    const table::TableSpec spec = kernelTableSpec(tables, by_op);
    return spec.title + ":\n" + table::toText(printed(spec, limit));
}

std::string kernelsCsv(const KernelTables& tables, bool by_op, size_t limit) {
    return table::toCsv(printed(kernelTableSpec(tables, by_op), limit));
}

json kernelsJson(const KernelTables& tables, bool by_op, size_t limit) {
    return {{"group_by", by_op ? "kernel_and_op" : "kernel"},
            {"rows", table::rowsJson(printed(kernelTableSpec(tables, by_op), limit))}};
}

} // namespace ts
