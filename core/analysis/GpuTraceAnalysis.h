#pragma once
// All GPU views of a Kineto trace in one pass: the Overview, the GPU
// summary, the Operators and Kernels views and the recommendations (the
// TensorBoard plugin's, see docs/gpu-traces.md).
#include <vector>

#include "analysis/DeviceOpStats.h"
#include "analysis/GpuMetrics.h"
#include "analysis/GpuOverview.h"
#include "analysis/KernelStats.h"
#include "analysis/TraceRecommendations.h"

namespace ts {

// How much of the analysis a caller needs. The Overview (with the GPU
// summary and the recommendations) needs the operator tree only for the
// Tensor-Core share of operators' kernels, so a trace without kernels skips
// it: on a CPU-only trace the tree is the largest part of the analysis (72 B
// per operator) and its longest stage.
enum class GpuAnalysisScope {
    Overview, // events, links, overview, metrics, recommendations
    All,      // and the tree and the kernel tables (Operators, Kernels, Memory, Modules)
    // The Overview's results alone, as summaryOf() or the Overview cache
    // (analysis/OverviewCache.h) give them: overview, metrics,
    // recommendations and the flags, but no events, links or tree.
    Summary,
};

struct GpuTraceAnalysis {
    GpuAnalysisScope scope = GpuAnalysisScope::All;
    KinetoEvents events;
    LaunchLinks links;
    DeviceOpTree tree;
    // Without its role ranges, in every scope: only the Distributed view,
    // which calls computeGpuOverview itself, reads them.
    GpuOverview overview;
    GpuMetrics metrics;
    KernelTables kernels;
    std::vector<TraceRecommendation> recommendations;
    // Trainscope's own profiler on a CUDA run times each operator on the GPU
    // (device_ns, the operator table's CUDA columns) but records no kernels:
    // these views then count the GPU's work as CPU Exec and list no kernels,
    // which the CLI and the GUI say.
    bool device_time_without_kernels = false;
    // The trace has events of the GPU views (Kineto categories or kinds):
    // `events` is not empty, except in a Summary.
    bool has_events = false;

    // Has the trace nothing for the GPU views?
    bool empty() const { return !has_events; }
    // Needs scope All.
    DeviceOpTable operators(const Trace& trace,
                            DeviceOpGrouping grouping = DeviceOpGrouping::Name) const;
};

// No device lanes, and some operator carries device time (device_ns).
bool opsTimedOnDeviceWithoutKernels(const Trace& trace);

// The Overview's results of `analysis` alone (scope Summary): what the
// Overview shows, without the per-event lists and the tree they were
// computed from (on a 1 GB GPU trace about 200 MB, let go before the GUI
// builds its timeline).
GpuTraceAnalysis summaryOf(GpuTraceAnalysis analysis);

GpuTraceAnalysis analyzeGpuTrace(const Trace& trace, const GpuAnalysisOptions& options = {},
                                 GpuAnalysisScope scope = GpuAnalysisScope::All);

} // namespace ts
