#pragma once
// One trace event as a value: what readers, writers and views exchange.
// The Trace keeps its events compactly in an EventStore (trace/EventStore.h)
// and builds TraceEvent values on demand.
#include <cstdint>
#include <string>

namespace ts {

enum class EventKind : uint8_t {
    Operator,   // forward ATen op (aten::conv2d, ...)
    Backward,   // autograd node (ConvolutionBackward0, ...)
    Annotation, // user range: step, phase (forward/backward/optimizer), record_function
    Kernel,     // device kernel / device-side op time
    Memcpy,     // device copies
    Other,
    // Kinds of torch.profiler (Kineto) traces; Trainscope's own profiler
    // records only the six above.
    Runtime,       // CUDA/HIP runtime or driver call on a CPU thread (cudaLaunchKernel, ...)
    Memset,        // device memset
    Communication, // collective: nccl:*, gloo:*, c10d::*, record_param_comms; NCCL kernels
    DataLoader,    // enumerate(DataLoader)#...__next__, enumerate(DataPipe)#...
    ProfilerStep,  // ProfilerStep#N: the profiler's step annotation
    ProfilerRange, // the profiler's own range, "PyTorch Profiler (N)"
    Python,        // Python-level range (cat "python")
};
const char* toString(EventKind kind);
// Inverse of toString; Other for anything unknown.
EventKind eventKindFromString(const std::string& text);
// Autograd work by name: "XxxBackward0", "autograd::engine::evaluate_function: ...",
// "torch::autograd::AccumulateGrad" (for traces that do not say what an event is).
bool isAutogradEventName(const std::string& name);

struct TraceEvent {
    uint32_t name = 0; // index into Trace::names
    EventKind kind = EventKind::Operator;
    int32_t lane = 0;     // index into Trace::lanes
    int64_t start_ns = 0; // relative to Trace::origin_ns
    int64_t dur_ns = 0;
    int32_t parent = -1; // enclosing event on the same lane, -1 at top level
    int16_t depth = 0;   // nesting depth on its lane (0 = top level)
    int64_t seq = -1;    // autograd sequence number, -1 if none
    int32_t link = -1;   // Operator: its backward node; Backward: its forward op
    int32_t shapes = -1; // index into Trace::strings ("[[32, 3, 32, 32], [64, 3, 3, 3]]")
    int64_t step = -1;   // training step the event belongs to, -1 unknown
    double flops = 0;    // floating point operations (2 per MAC), 0 = unknown
    double bytes = 0;    // estimated bytes moved (inputs + outputs), 0 = unknown
    // A copy's or set's bandwidth as Kineto measured it (its "memory
    // bandwidth (GB/s)", from CUPTI's exact duration; a trace's microsecond
    // durations can be off by half of a short copy's), 0 = unknown.
    double gbps = 0;
    int64_t device_ns = 0;   // device time attributed to this op (CUDA), 0 = none
    int64_t alloc_bytes = 0; // CPU bytes allocated while this event was innermost
    int64_t free_bytes = 0;  // CPU bytes freed while this event was innermost
    int32_t types = -1;      // index into Trace::strings: input dtypes (["float", "", ...])
    int32_t args = -1;       // index into Trace::strings: non-tensor inputs (["", "[1, 1]", ...])

    int64_t end_ns() const { return start_ns + dur_ns; }
};

} // namespace ts
