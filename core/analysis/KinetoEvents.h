#pragma once
// The events of a Kineto trace as the GPU views see them: the TensorBoard
// plugin's event types (category first, then the name), in time order, with
// their correlation and external ids. The input of the overview, the
// operator tree and the kernel tables.
#include <cstdint>
#include <vector>

#include "trace/Trace.h"
#include "util/Cancel.h"

namespace ts {

struct GpuAnalysisOptions {
    // Reproduce torch.profiler's TensorBoard plugin (kineto 041e7ce) number
    // for number: only its ten nccl:/gloo: collectives count as
    // communication (not c10d::*, record_param_comms, NCCL kernels by name),
    // cuda_driver calls are dropped, and a fully covered step resets the
    // cost split (see docs/gpu-traces.md). Off: Trainscope's rules.
    bool plugin_compatible = false;
    // Stops the analysis between its stages (Cancelled) once requested: the
    // GUI's Cancel while a trace opens. Not part of what the analysis gives.
    const CancelFlag* cancel = nullptr;
};

enum class PluginType : uint8_t {
    Trace,          // the profiler's own range
    Operator,       // cpu_op
    ProfilerStep,   // ProfilerStep#N (cpu_op or user_annotation)
    Runtime,        // runtime (and cuda_driver unless plugin_compatible)
    Kernel,         // kernel
    Memcpy,         // memcpy
    Memset,         // memset
    Python,         // python
    UserAnnotation, // user_annotation, gpu_user_annotation
};

// 24 bytes: one per event of the trace. Its ids (correlation, External id)
// stay in the event store: kinetoIds() reads them.
struct KinetoEvent {
    int32_t event = -1; // index into Trace::events
    PluginType type = PluginType::Operator;
    int64_t start = 0, end = 0; // ns
};
static_assert(sizeof(KinetoEvent) == 24, "one per trace event: keep it small");

struct KinetoEvents {
    std::vector<KinetoEvent> events; // by (start, lane, index): the plugin's time order
    bool empty() const { return events.empty(); }
};

// Events of a known category (or, for traces without categories such as
// Trainscope's own, of a known kind).
KinetoEvents collectKinetoEvents(const Trace& trace, const GpuAnalysisOptions& options);

// The event's correlation and External id, -1 where it has none.
EventIds kinetoIds(const Trace& trace, const KinetoEvent& e);

bool isDeviceType(PluginType type); // Kernel, Memcpy, Memset
bool isHostType(PluginType type);   // Operator, ProfilerStep, Python, UserAnnotation

} // namespace ts
