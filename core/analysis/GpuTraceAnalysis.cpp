#include "analysis/GpuTraceAnalysis.h"

namespace ts {

DeviceOpTable GpuTraceAnalysis::operators(const Trace& trace, DeviceOpGrouping grouping) const {
    return computeDeviceOpTable(trace, tree, grouping,
                                overview.has_kernel || overview.has_memcpy_or_memset);
}

GpuTraceAnalysis analyzeGpuTrace(const Trace& trace, const GpuAnalysisOptions& options) {
    GpuTraceAnalysis a;
    a.events = collectKinetoEvents(trace, options);
    a.links = linkLaunches(a.events);
    a.tree = buildDeviceOpTree(trace, a.events, a.links, options);
    a.overview = computeGpuOverview(trace, a.events, a.links, options);
    a.metrics = computeGpuMetrics(trace, a.events, a.links, a.tree, a.overview);
    a.kernels = computeKernelTables(trace, a.events, a.links, a.tree);
    a.recommendations = recommendForTrace(trace, a.overview, a.metrics);
    return a;
}

} // namespace ts
