#include "analysis/GpuTraceAnalysis.h"

#include <future>

namespace ts {

DeviceOpTable GpuTraceAnalysis::operators(const Trace& trace, DeviceOpGrouping grouping) const {
    return computeDeviceOpTable(trace, tree, grouping,
                                overview.has_kernel || overview.has_memcpy_or_memset);
}

// The tree and the overview need only the events and links, the metrics
// and kernel tables only those and the tree: each pair runs on two threads,
// which halves the wait on a large trace (they only read what they share).
GpuTraceAnalysis analyzeGpuTrace(const Trace& trace, const GpuAnalysisOptions& options) {
    GpuTraceAnalysis a;
    a.events = collectKinetoEvents(trace, options);
    a.links = linkLaunches(trace, a.events);
    auto overview = std::async(
        std::launch::async, [&] { return computeGpuOverview(trace, a.events, a.links, options); });
    a.tree = buildDeviceOpTree(trace, a.events, a.links, options);
    a.overview = overview.get();
    auto kernels = std::async(std::launch::async, [&] {
        return computeKernelTables(trace, a.events, a.links, a.tree, options.plugin_compatible);
    });
    a.metrics =
        computeGpuMetrics(trace, a.events, a.links, a.tree, a.overview, options.plugin_compatible);
    a.kernels = kernels.get();
    a.recommendations = recommendForTrace(trace, a.overview, a.metrics);
    return a;
}

} // namespace ts
