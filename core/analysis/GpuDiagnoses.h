#pragma once
// Holistic Trace Analysis' diagnoses of one trace, made together from one
// collection of its device activity: what the GUI keeps per open trace and
// the CLI prints (--view temporal, idle, launches, kernel-types).
#include "analysis/DeviceActivity.h"
#include "analysis/IdleTime.h"
#include "analysis/KernelTypes.h"
#include "analysis/LaunchStats.h"
#include "analysis/MemoryBandwidth.h"
#include "analysis/QueueLength.h"

namespace ts {

struct GpuDiagnoses {
    DeviceActivities activity;
    TemporalBreakdown temporal;
    IdleBreakdown idle;
    LaunchStats launches;
    KernelTypeBreakdown kernel_types;
    QueueLength queue;
    MemoryBandwidth memory_bw;
};

struct GpuTraceAnalysis;

// `analysis`: the trace's full GPU analysis when already made; its events
// and launch links are used rather than found again.
GpuDiagnoses diagnoseGpu(const Trace& trace, const GpuTraceAnalysis* analysis = nullptr,
                         const IdleOptions& idle = {});

} // namespace ts
