#include "analysis/GpuDiagnoses.h"

#include "analysis/GpuTraceAnalysis.h"
#include "analysis/LaunchIndex.h"

namespace ts {
namespace {
constexpr size_t kWholeTracePathEvents = 1000000;
} // namespace

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
    // The first step's path; the whole trace's only when it is small (a
    // step-less trace of millions of events is a graph of millions of
    // nodes: the Critical Path view makes it when asked).
    std::string error;
    const std::optional<CpWindow> window = chooseWindow(trace, {}, error);
    if (window && (window->event >= 0 || !trace.steps.empty() ||
                   trace.events.size() <= kWholeTracePathEvents))
        d.critical_path = analyseCriticalPath(trace, launches, *window);
    return d;
}

} // namespace ts
