#pragma once
// The in-memory trace model shared by Trainscope's own profiler, the Chrome
// trace importer/exporter, the operator statistics and the GUI timeline.
// Compact on purpose (interned names, index links) so that a 1,000,000-event
// trace stays a few hundred MB at most and can be drawn fluidly.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/KinetoInfo.h"

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
    int32_t parent = -1;     // enclosing event on the same lane, -1 at top level
    int16_t depth = 0;       // nesting depth on its lane (0 = top level)
    int64_t seq = -1;        // autograd sequence number, -1 if none
    int32_t link = -1;       // Operator: its backward node; Backward: its forward op
    int32_t shapes = -1;     // index into Trace::strings ("[[32, 3, 32, 32], [64, 3, 3, 3]]")
    int64_t step = -1;       // training step the event belongs to, -1 unknown
    double flops = 0;        // floating point operations (2 per MAC), 0 = unknown
    double bytes = 0;        // estimated bytes moved (inputs + outputs), 0 = unknown
    int64_t device_ns = 0;   // device time attributed to this op (CUDA), 0 = none
    int64_t alloc_bytes = 0; // CPU bytes allocated while this event was innermost
    int64_t free_bytes = 0;  // CPU bytes freed while this event was innermost
    int32_t types = -1;      // index into Trace::strings: input dtypes (["float", "", ...])
    int32_t args = -1;       // index into Trace::strings: non-tensor inputs (["", "[1, 1]", ...])

    int64_t end_ns() const { return start_ns + dur_ns; }
};

struct TraceLane {
    std::string name; // "thread 1234 (main)", "GPU 0 stream 7"
    int64_t tid = 0;
    bool device = false;
    int32_t gpu = -1;    // device lanes of Kineto traces: the GPU (the event's pid)
    int64_t stream = -1; // and the stream ("stream 7"), -1 unknown
};

// Live CPU tensor bytes after each allocation/free (memory counter track).
struct MemorySample {
    int64_t t_ns = 0;
    int64_t live_bytes = 0;
    int64_t delta_bytes = 0; // + allocation, - free
    int32_t event = -1;      // innermost operator at that moment, -1 none
};

struct StepMark {
    int64_t step = 0;
    int64_t start_ns = 0;
    int64_t end_ns = 0;
};

struct Trace {
    std::vector<std::string> names;   // interned event names
    std::vector<std::string> strings; // interned other strings (shapes)
    std::vector<TraceLane> lanes;
    std::vector<TraceEvent> events;   // sorted by (lane, start_ns, -dur_ns)
    std::vector<MemorySample> memory; // sorted by t_ns
    std::vector<StepMark> steps;
    std::vector<std::string> notes; // e.g. "truncated to 1000000 events"
    std::string source;             // "trainscope", "torch.profiler (kineto)", ...
    int64_t origin_ns = 0;          // absolute time of t=0 (for export)
    // What Kineto traces carry beyond the events (categories, correlation and
    // external ids, kernel launch properties, GPU memory, device properties),
    // in side tables keyed by event index so TraceEvent stays small. Empty for
    // traces without it.
    KinetoInfo kineto;

    uint32_t internName(const std::string& name);
    int32_t internString(const std::string& text);
    const std::string& nameOf(const TraceEvent& e) const { return names[e.name]; }
    const std::string& shapesOf(const TraceEvent& e) const;
    // Empty string for -1 (no string).
    const std::string& stringAt(int32_t index) const;
    // The lane for (tid, device), created with `name` when new.
    int32_t laneFor(int64_t tid, bool device, const std::string& name);
    // Restores sort order, parent/depth and forward<->backward links after
    // events were appended in arbitrary order. Links already set are kept
    // (renumbered); the others are found through sequence numbers: a backward
    // node links to the outermost forward op with its sequence number that
    // started last before it.
    void finalize();
    // Same; new_index[i] receives the position of the event that was at i.
    void finalize(std::vector<int32_t>* new_index);

private:
    std::unordered_map<std::string, uint32_t> name_index_;
    std::unordered_map<std::string, int32_t> string_index_;
    std::unordered_map<int64_t, int32_t> lane_index_; // key: tid * 2 + device
};

// One finished profiling window, delivered by the engine to observers.
struct ProfileCapture {
    int window = 0;         // 0-based window index
    int64_t first_step = 0; // global steps covered (inclusive)
    int64_t last_step = 0;
    Trace trace;
};

} // namespace ts
