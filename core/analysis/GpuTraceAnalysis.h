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

struct GpuTraceAnalysis {
    KinetoEvents events;
    LaunchLinks links;
    DeviceOpTree tree;
    GpuOverview overview;
    GpuMetrics metrics;
    KernelTables kernels;
    std::vector<TraceRecommendation> recommendations;

    // Has the trace anything for the GPU views (Kineto categories or kinds)?
    bool empty() const { return events.empty(); }
    DeviceOpTable operators(const Trace& trace,
                            DeviceOpGrouping grouping = DeviceOpGrouping::Name) const;
};

GpuTraceAnalysis analyzeGpuTrace(const Trace& trace, const GpuAnalysisOptions& options = {});

} // namespace ts
