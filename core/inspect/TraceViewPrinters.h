#pragma once
// The printers of `trace-stats --view` (inspect/TraceViews.h registers them).
#include "inspect/TraceViews.h"

namespace ts::printers {

// overview, operators, kernels, kernels-by-op: the GPU views of a Kineto
// trace; the Overview of a large trace opened before comes from its cache.
void gpuView(TraceViewRequest& request);
// The time range and device of --start-us, --end-us and --device.
void memory(TraceViewRequest& request);
void modules(TraceViewRequest& request);
// A folder of per-rank traces (or several files), one span of it.
void distributed(TraceViewRequest& request);
// Holistic Trace Analysis' temporal and idle-time breakdowns and kernel
// launch statistics (DiagnosisPrinters.cpp).
void temporal(TraceViewRequest& request);
void idle(TraceViewRequest& request);
void launches(TraceViewRequest& request);
void kernelTypes(TraceViewRequest& request);

} // namespace ts::printers
