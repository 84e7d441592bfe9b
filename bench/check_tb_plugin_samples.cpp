// Trainscope's GPU views next to torch.profiler's TensorBoard plugin on the
// plugin's sample traces (ResNet-50 on a V100, not in this repository):
//
//   check_tb_plugin_samples EXPECTED.json SAMPLES_DIR [--plugin-compatible]
//
// EXPECTED.json (bench/data/tb_plugin_samples_expected.json) holds the
// plugin's figures per sample, keyed "<run>/<worker>.<span>"; the trace is
// SAMPLES_DIR/<key>.pt.trace.json.gz. Prints the average step per category,
// the GPU summary, the top operators and kernels, each with the difference,
// and exits 1 if an Overview category differs by more than 1%.
// Links only the layers without LibTorch.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/GpuTraceAnalysis.h"
#include "trace/ChromeTraceReader.h"

namespace {

using json = nlohmann::json;
using namespace ts;

double percentDiff(double ours, double plugin) {
    if (plugin == 0) return ours == 0 ? 0 : 100;
    return 100 * (ours - plugin) / plugin;
}

// Within 1% of the plugin's figure, or half a microsecond for tiny ones.
bool close(double ours, double plugin) {
    return std::fabs(ours - plugin) <= std::max(0.01 * std::fabs(plugin), 0.5);
}

bool checkOverview(const GpuTraceAnalysis& a, const json& e) {
    bool ok = true;
    std::printf("  %-14s %14s %14s %9s\n", "category", "plugin (us)", "ours (us)", "diff");
    for (size_t r = 0; r < kGpuRoleCount; ++r) {
        const double plugin = e["average_us"][r].get<double>();
        const double ours = a.overview.average_ns[r] / 1000;
        const bool good = close(ours, plugin);
        ok = ok && good;
        std::printf("  %-14s %14.3f %14.3f %8.3f%%%s\n", toString(GpuRole(r)), plugin, ours,
                    percentDiff(ours, plugin), good ? "" : "  <-- more than 1%");
    }
    const json& steps = e["steps"];
    std::size_t exact = 0;
    for (size_t s = 0; s < steps.size() && s < a.overview.steps.size(); ++s) {
        bool same = a.overview.steps[s].label == steps[s].get<std::string>();
        for (size_t r = 0; r < kGpuRoleCount; ++r)
            same = same && double(a.overview.steps[s].cost_ns[r]) / 1000 ==
                               e["steps_costs_us"][s][r].get<double>();
        exact += same;
    }
    std::printf("  steps: plugin %zu, ours %zu; identical per-step rows: %zu\n", steps.size(),
                a.overview.steps.size(), exact);
    return ok && steps.size() == a.overview.steps.size();
}

void printGpu(const GpuTraceAnalysis& a, const json& e) {
    const json& g = e["gpu"];
    if (a.metrics.gpus.empty()) {
        std::printf("  GPU summary: none (plugin: GPU %d)\n", g["id"].get<int>());
        return;
    }
    const GpuDeviceSummary& s = a.metrics.gpus.front();
    auto row = [](const char* what, double plugin, double ours) {
        std::printf("  %-28s %10.4f %10.4f %8.3f%%\n", what, plugin, ours,
                    percentDiff(ours, plugin));
    };
    std::printf("  %-28s %10s %10s %9s\n", "GPU summary", "plugin", "ours", "diff");
    row("GPU utilization %", 100 * g["utilization"].get<double>(), 100 * s.utilization);
    row("est. SM efficiency %", 100 * g["sm_efficiency"].get<double>(),
        100 * s.sm_efficiency.value_or(NAN));
    row("est. achieved occupancy %", g["occupancy_pct"].get<double>(), s.occupancy.value_or(NAN));
    row("kernel time on Tensor Cores %", 100 * g["tensor_core_ratio"].get<double>(),
        100 * s.tensor_core_ratio.value_or(NAN));
    row("TC-eligible ops' kernel time %", 100 * e["tc_eligible_ops_kernel_ratio"].get<double>(),
        100 * a.metrics.tc_eligible_ops_kernel_ratio);
    std::printf("  recommendations: plugin %d, ours %zu\n", e["recommendations"].get<int>(),
                a.recommendations.size());
}

void printOperators(const Trace& t, const GpuTraceAnalysis& a, const json& e) {
    const DeviceOpTable ops = a.operators(t);
    std::printf("  operators (by name): plugin %d rows, ours %zu; top by device self time:\n",
                e["operator_rows"].get<int>(), ops.rows.size());
    std::printf("    %-42s %12s %12s %12s %12s\n", "name", "plugin dev", "ours dev", "plugin host",
                "ours host");
    for (const json& r : e["top_operators"]) {
        const std::string name = r[0];
        const DeviceOpRow* ours = nullptr;
        for (const DeviceOpRow& row : ops.rows)
            if (row.name == name) ours = &row;
        std::printf("    %-42.42s %12lld %12.0f %12lld %12.0f\n", name.c_str(),
                    r[2].get<long long>(), ours ? ours->device_self_ns / 1000.0 : NAN,
                    r[4].get<long long>(), ours ? ours->host_self_ns / 1000.0 : NAN);
    }
}

void printKernels(const GpuTraceAnalysis& a, const json& e) {
    std::printf(
        "  kernels (by name): plugin %d rows, ours %zu; by kernel+op: plugin %d, ours %zu\n",
        e["kernel_rows"].get<int>(), a.kernels.by_name.size(), e["kernel_op_rows"].get<int>(),
        a.kernels.by_op.size());
    std::printf("    %-42s %8s %8s %10s %10s %8s %8s\n", "name", "calls", "ours", "total", "ours",
                "occ %", "ours");
    for (const json& r : e["top_kernels"]) {
        const std::string name = r[0];
        const KernelRow* ours = nullptr;
        for (const KernelRow& row : a.kernels.by_name)
            if (row.name == name) ours = &row;
        std::printf("    %-42.42s %8lld %8lld %10lld %10.0f %8.2f %8.2f\n", name.c_str(),
                    r[1].get<long long>(), ours ? (long long)ours->calls : -1LL,
                    r[2].get<long long>(), ours ? ours->total_ns / 1000.0 : NAN,
                    r[7].is_null() ? NAN : r[7].get<double>(), ours ? ours->occupancy : NAN);
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: check_tb_plugin_samples EXPECTED.json SAMPLES_DIR "
                     "[--plugin-compatible]\n";
        return 2;
    }
    std::ifstream in(argv[1]);
    const json expected = json::parse(in, nullptr, false);
    if (expected.is_discarded()) {
        std::cerr << argv[1] << ": not valid JSON\n";
        return 2;
    }
    GpuAnalysisOptions options;
    options.plugin_compatible = argc > 3 && std::string(argv[3]) == "--plugin-compatible";
    bool ok = true;
    for (const auto& [key, e] : expected.items()) {
        if (key.rfind('_', 0) == 0) continue;
        const std::string path = std::string(argv[2]) + "/" + key + ".pt.trace.json.gz";
        std::printf("%s (%s)\n", key.c_str(),
                    options.plugin_compatible ? "plugin-compatible" : "Trainscope's rules");
        try {
            const Trace trace = readChromeTraceFile(path);
            const GpuTraceAnalysis a = analyzeGpuTrace(trace, options);
            ok = checkOverview(a, e) && ok;
            printGpu(a, e);
            printOperators(trace, a, e);
            printKernels(a, e);
        } catch (const std::exception& ex) {
            std::printf("  cannot check: %s\n", ex.what());
            ok = false;
        }
        std::printf("\n");
    }
    std::printf("%s\n", ok ? "every Overview category within 1% of the plugin"
                           : "some Overview category differs by more than 1%");
    return ok ? 0 : 1;
}
