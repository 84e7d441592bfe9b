#pragma once
// The graph of a critical path analysis (Holistic Trace Analysis' CPGraph,
// learnt from its description, written anew): every CPU operator, runtime
// call and kernel of a time window as a start and an end node, and edges
// for what made each point wait for another:
//   operator   an event's own time between two of its nodes (self time of
//              a CPU operator between its children, a kernel's duration)
//   dependency order on a thread, nesting, the CUDA runtime's lock (zero
//              weight)
//   launch     runtime call start -> kernel start, when the kernel waited
//              for its launch (queue empty), weight = the delay
//   kernel     previous kernel's end -> kernel start on a stream, weight =
//              the gap
//   sync       kernel end -> end of the CPU call that waited for it
//              (stream, device and event synchronisation), kernel end ->
//              kernel start across streams (cudaStreamWaitEvent)
// The longest path through it is the chain of work the window waited for.
#include <cstdint>
#include <string>
#include <vector>

#include "trace/Trace.h"

namespace ts {

class LaunchIndex;

enum class CpEdgeType : uint8_t { Operator, Dependency, LaunchDelay, KernelDelay, Sync };
// HTA's names: "critical_path_operator", "critical_path_dependency", ...
const char* toString(CpEdgeType type);

// What bounds an edge on the path (HTA's categories); None: zero-weight
// dependencies and synchronisations.
enum class BoundBy : uint8_t {
    None,
    CpuBound,
    GpuCompute,
    GpuCommunication,
    LaunchOverhead,
    KernelOverhead,
    DataLoading
};
inline constexpr int kBoundKinds = 7;
// "cpu_bound", "gpu_compute_bound", "gpu_communication_bound",
// "gpu_kernel_launch_overhead", "gpu_kernel_kernel_overhead", "data_loading"; "" None.
const char* toString(BoundBy bound);
// Inverse of toString, also "launch", "kernel_kernel", "cpu", "compute",
// "communication"; false for anything else.
bool boundFromString(const std::string& text, BoundBy& out);

struct CpNode {
    int64_t t = 0;      // ns from the trace's origin
    int32_t event = -1; // Trace::events index
    bool start = false;
};

struct CpEdge {
    int32_t from = -1, to = -1; // node indices
    int64_t weight = 0;         // ns
    int32_t event = -1;         // the event the edge's time belongs to, -1 none
    CpEdgeType type = CpEdgeType::Dependency;
    BoundBy bound = BoundBy::None;
};

// The time window of the analysis: a step, an annotation's instance or the
// whole trace.
struct CpWindow {
    int64_t start = 0, end = 0; // ns
    int32_t event = -1;         // the step's or annotation's event, -1 whole trace
    std::string label;          // "ProfilerStep#12", "whole trace"
};

struct CpGraphOptions {
    // DataLoader events (enumerate(DataLoader)#...__next__) are nodes, and
    // the time of what runs inside them is data loading. HTA: only for the
    // names passed as data_load_events (none by default).
    bool data_loading = true;
    // A zero-weight edge from every launch to its kernel, so that a what-if
    // never starts a kernel before its launch. HTA: an option, off.
    bool launch_causality = true;
    // With exactly one thread that runs "forward" events and one other that
    // runs "autograd" ones, the second's events join the first's stack (HTA).
    bool merge_backward_thread = true;
    // Times as HTA reads a trace with sub-microsecond times (starts up, ends
    // down to whole microseconds; shorter events vanish): for the
    // conformance bench only.
    bool hta_rounding = false;
};

struct CpGraph {
    CpWindow window;
    std::vector<CpNode> nodes; // 2k: start of node_events[k]; 2k + 1: its end
    std::vector<CpEdge> edges;
    std::vector<int32_t> node_events; // events with nodes, ascending
    std::vector<int32_t> order;       // nodes in a topological order
    std::vector<std::string> notes;   // what could not be linked, and why
    size_t kernels = 0;               // device events in the graph
    size_t unlinked_kernels = 0;      // kernels without an incoming edge
    size_t negative_edges = 0;        // edges that ran backwards in time (counted as 0)
    size_t cycle_edges = 0;           // edges dropped to break cycles

    int32_t startNode(int32_t event) const; // -1 when the event has no nodes
    int32_t endNode(int32_t event) const;
};

CpGraph buildCriticalPathGraph(const Trace& trace, const LaunchIndex& launches,
                               const CpWindow& window, const CpGraphOptions& options = {});

} // namespace ts
