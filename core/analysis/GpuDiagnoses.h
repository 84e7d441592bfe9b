#pragma once
// Holistic Trace Analysis' diagnoses of one trace, made together from one
// collection of its device activity: what the GUI keeps per open trace and
// the CLI prints (--view temporal, idle, launches, kernel-types,
// annotations, kernel-sequences).
#include "analysis/CriticalPath.h"
#include "analysis/DeviceActivity.h"
#include "analysis/DiagnosisCounters.h"
#include "analysis/IdleTime.h"
#include "analysis/KernelSequences.h"
#include "analysis/KernelTypes.h"
#include "analysis/LaunchStats.h"
#include "analysis/MemoryBandwidth.h"
#include "analysis/QueueLength.h"
#include "analysis/UserAnnotations.h"

namespace ts {

struct GpuDiagnoses {
    DeviceActivities activity;
    TemporalBreakdown temporal;
    IdleBreakdown idle;
    LaunchStats launches;
    KernelTypeBreakdown kernel_types;
    QueueLength queue;
    MemoryBandwidth memory_bw;
    std::vector<ValueRow> counters; // the timeline's rows of the two
    // Both sides of the annotations (one pass each over the activity) and
    // the sequences of every outermost operator with HTA's min_pattern_len.
    AnnotationBreakdown gpu_annotations, cpu_annotations;
    KernelSequences sequences;
    // The critical path of the first step (the whole trace without one).
    CriticalPathReport critical_path;
};

struct GpuTraceAnalysis;
class LaunchIndex;

// `analysis`: the trace's full GPU analysis when already made; its events
// and launch links are used rather than found again.
GpuDiagnoses diagnoseGpu(const Trace& trace, const GpuTraceAnalysis* analysis = nullptr,
                         const IdleOptions& idle = {});
// With the trace's launch links already made (the timeline's).
GpuDiagnoses diagnoseGpu(const Trace& trace, const LaunchIndex& launches,
                         const IdleOptions& idle = {});

} // namespace ts
