#include "analysis/GpuTraceAnalysis.h"

#include "util/ThreadPool.h"

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

// Above this many Kineto events the overview and the operator tree are made
// one after the other, for memory; below, on two threads, for time.
constexpr size_t kOverviewBesideTreeUpTo = 1000000;

} // namespace

bool opsTimedOnDeviceWithoutKernels(const Trace& trace) {
    for (const TraceLane& lane : trace.lanes)
        if (lane.device) return false;
    for (const EventOpFields& op : trace.events.columns().op)
        if (op.device_ns != 0) return true;
    return false;
}

GpuTraceAnalysis summaryOf(GpuTraceAnalysis analysis) {
    GpuTraceAnalysis s;
    s.scope = GpuAnalysisScope::Summary;
    s.overview = std::move(analysis.overview);
    s.metrics = std::move(analysis.metrics);
    s.recommendations = std::move(analysis.recommendations);
    s.device_time_without_kernels = analysis.device_time_without_kernels;
    s.has_events = analysis.has_events;
    return s;
}

// The tree and the overview need only the events and links, the metrics
// and kernel tables only those and the tree: each pair runs on two threads,
// which halves the wait on a large trace (they only read what they share).
GpuTraceAnalysis analyzeGpuTrace(const Trace& trace, const GpuAnalysisOptions& options,
                                 GpuAnalysisScope scope) {
    GpuTraceAnalysis a;
    a.scope = scope;
    a.events = collectKinetoEvents(trace, options);
    a.has_events = !a.events.empty();
    checkCancel(options.cancel);
    a.links = linkLaunches(trace, a.events);
    checkCancel(options.cancel);
    // The overview goes without its role ranges, each let go as soon as it
    // is used (the Distributed view, their only reader, makes its own).
    auto overview = [&] {
        a.overview = computeGpuOverview(trace, a.events, a.links, options, false);
    };
    // Without kernels the metrics take nothing from the tree: an empty one
    // gives the same figures.
    const bool tree = scope == GpuAnalysisScope::All || anyKernel(a.events);
    if (tree && a.events.events.size() > kOverviewBesideTreeUpTo) {
        // One after the other: the overview's range lists at their largest
        // beside the whole tree were the peak of opening a 1 GB GPU trace.
        overview();
        checkCancel(options.cancel);
        a.tree = buildDeviceOpTree(trace, a.events, a.links, options);
    } else {
        TaskGroup beside; // writes a.overview only
        beside.run(overview);
        if (tree) a.tree = buildDeviceOpTree(trace, a.events, a.links, options);
        beside.wait();
    }
    checkCancel(options.cancel);
    TaskGroup kernels; // writes a.kernels only
    if (scope == GpuAnalysisScope::All)
        kernels.run([&] {
            a.kernels =
                computeKernelTables(trace, a.events, a.links, a.tree, options.plugin_compatible);
        });
    a.metrics =
        computeGpuMetrics(trace, a.events, a.links, a.tree, a.overview, options.plugin_compatible);
    kernels.wait();
    checkCancel(options.cancel);
    a.recommendations = recommendForTrace(trace, a.overview, a.metrics);
    a.device_time_without_kernels = opsTimedOnDeviceWithoutKernels(trace);
    return a;
}

} // namespace ts
