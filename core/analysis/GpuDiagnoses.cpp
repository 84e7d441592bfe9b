#include "analysis/GpuDiagnoses.h"

namespace ts {

GpuDiagnoses diagnoseGpu(const Trace& trace, const IdleOptions& idle) {
    GpuDiagnoses d;
    d.activity = collectDeviceActivity(trace);
    d.temporal = temporalBreakdown(d.activity);
    d.idle = idleBreakdown(trace, d.activity, idle);
    d.launches = launchStats(trace, d.activity);
    d.kernel_types = kernelTypeBreakdown(trace, d.activity);
    return d;
}

} // namespace ts
