#include "analysis/GpuDiagnoses.h"

#include "analysis/GpuTraceAnalysis.h"
#include "analysis/LaunchIndex.h"

namespace ts {

GpuDiagnoses diagnoseGpu(const Trace& trace, const GpuTraceAnalysis* analysis,
                         const IdleOptions& idle) {
    if (analysis && analysis->has_events)
        return diagnoseGpu(trace, LaunchIndex::build(analysis->events, analysis->links), idle);
    return diagnoseGpu(trace, LaunchIndex::build(trace), idle);
}

GpuDiagnoses diagnoseGpu(const Trace& trace, const LaunchIndex& launches, const IdleOptions& idle) {
    GpuDiagnoses d;
    d.activity = collectDeviceActivity(trace, {}, &launches);
    d.temporal = temporalBreakdown(d.activity);
    d.idle = idleBreakdown(trace, d.activity, idle);
    d.launches = launchStats(trace, d.activity);
    d.kernel_types = kernelTypeBreakdown(trace, d.activity);
    d.queue = queueLength(trace, d.activity);
    d.memory_bw = memoryBandwidth(trace, d.activity);
    d.counters = diagnosisCounterRows(d.queue, d.memory_bw);
    d.gpu_annotations = userAnnotations(trace, d.activity);
    AnnotationOptions cpu;
    cpu.side = AnnotationSide::Cpu;
    d.cpu_annotations = userAnnotations(trace, d.activity, cpu);
    d.sequences = kernelSequences(trace, d.activity);
    std::string error;
    if (const std::optional<CpWindow> window = chooseWindow(trace, {}, error))
        d.critical_path = analyseCriticalPath(trace, launches, *window);
    return d;
}

} // namespace ts
