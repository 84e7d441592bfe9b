#include "analysis/GpuTraceAnalysis.h"

#include <future>

namespace ts {

DeviceOpTable GpuTraceAnalysis::operators(const Trace& trace, DeviceOpGrouping grouping) const {
    return computeDeviceOpTable(trace, tree, grouping,
                                overview.has_kernel || overview.has_memcpy_or_memset);
}

namespace {

bool anyKernel(const KinetoEvents& events) {
    for (const KinetoEvent& e : events.events)
        if (e.type == PluginType::Kernel) return true;
    return false;
}

} // namespace

bool opsTimedOnDeviceWithoutKernels(const Trace& trace) {
    for (const TraceLane& lane : trace.lanes)
        if (lane.device) return false;
    for (const EventOpFields& op : trace.events.columns().op)
        if (op.device_ns != 0) return true;
    return false;
}

// The tree and the overview need only the events and links, the metrics
// and kernel tables only those and the tree: each pair runs on two threads,
// which halves the wait on a large trace (they only read what they share).
GpuTraceAnalysis analyzeGpuTrace(const Trace& trace, const GpuAnalysisOptions& options,
                                 GpuAnalysisScope scope) {
    GpuTraceAnalysis a;
    a.scope = scope;
    a.events = collectKinetoEvents(trace, options);
    a.links = linkLaunches(trace, a.events);
    auto overview = std::async(
        std::launch::async, [&] { return computeGpuOverview(trace, a.events, a.links, options); });
    // Without kernels the metrics take nothing from the tree: an empty one
    // gives the same figures.
    const bool tree = scope == GpuAnalysisScope::All || anyKernel(a.events);
    if (tree) a.tree = buildDeviceOpTree(trace, a.events, a.links, options);
    a.overview = overview.get();
    std::future<KernelTables> kernels;
    if (scope == GpuAnalysisScope::All)
        kernels = std::async(std::launch::async, [&] {
            return computeKernelTables(trace, a.events, a.links, a.tree, options.plugin_compatible);
        });
    a.metrics =
        computeGpuMetrics(trace, a.events, a.links, a.tree, a.overview, options.plugin_compatible);
    if (kernels.valid()) a.kernels = kernels.get();
    a.recommendations = recommendForTrace(trace, a.overview, a.metrics);
    a.device_time_without_kernels = opsTimedOnDeviceWithoutKernels(trace);
    return a;
}

} // namespace ts
