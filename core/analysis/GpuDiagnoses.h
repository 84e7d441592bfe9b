#pragma once
// Holistic Trace Analysis' diagnoses of one trace, made together from one
// collection of its device activity: what the GUI keeps per open trace and
// the CLI prints (--view temporal, idle, launches, kernel-types).
#include "analysis/DeviceActivity.h"
#include "analysis/IdleTime.h"
#include "analysis/KernelTypes.h"
#include "analysis/LaunchStats.h"

namespace ts {

struct GpuDiagnoses {
    DeviceActivities activity;
    TemporalBreakdown temporal;
    IdleBreakdown idle;
    LaunchStats launches;
    KernelTypeBreakdown kernel_types;
};

GpuDiagnoses diagnoseGpu(const Trace& trace, const IdleOptions& idle = {});

} // namespace ts
