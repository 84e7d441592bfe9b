#pragma once
// The host operator tree one side of a trace diff walks (TraceDiff): one
// thread's operators nested by time with their host and device times, and
// the top-level operator list of the whole trace and of each step. Built
// from the operator tree of a Kineto trace (DeviceOpTree) or from the nesting
// of Trainscope's own trace, so that the TensorBoard plugin's tree compare
// (DiffTree) runs on both.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/GpuTraceAnalysis.h"

namespace ts {

// What the tree compare matches nodes by (with the name): the plugin's
// DataLoader, Module, Backward, Optimizer and ProfilerStep nodes, and the
// phase annotations of Trainscope's own traces (data, copy, forward,
// backward, optimizer), which play their part there. Operators never match.
enum class DiffNodeKind : uint8_t {
    Operator,
    DataLoader,
    Module, // "nn.Module: X" (Kineto traces recorded with_modules)
    Backward,
    Optimizer,
    ProfilerStep,
    Phase,
};
bool isMatchable(DiffNodeKind kind);

struct DiffHostNode {
    std::string name;
    DiffNodeKind kind = DiffNodeKind::Operator;
    int64_t start_ns = 0, end_ns = 0;
    int64_t self_host_ns = 0;
    int64_t device_total_ns = 0, device_self_ns = 0; // kernels, memcpy, memset it launched
    bool real_operator = false;                      // counted in the operator rows
    std::vector<int32_t> children;                   // indices into DiffHostTree::nodes, by start

    int64_t hostNs() const { return end_ns - start_ns; }
};

struct DiffHostStep {
    std::string label; // "5" for ProfilerStep#5, the step number of own traces
    // In the trace; Kineto: the Overview's step (extended to its device
    // work) joined with its ProfilerStep range.
    int64_t start_ns = 0, end_ns = 0;
    std::vector<int32_t> top; // the step's top-level nodes
};

struct DiffHostTree {
    std::vector<DiffHostNode> nodes;
    std::vector<int32_t> top; // the steps' top-level nodes in order (all top-level without steps)
    std::vector<DiffHostStep> steps; // one spanning the host work when the trace has no steps
    bool has_steps = false;          // the trace marks its steps (ProfilerStep#N, own step track)
};

// The thread holding the ProfilerStep nodes (the first thread without any);
// steps are the Overview's, so that the step times agree with it.
DiffHostTree diffTreeOfKineto(const Trace& trace, const GpuTraceAnalysis& analysis);
// The host thread holding the phase annotations (else the first host thread
// with events); steps are the trace's step marks.
DiffHostTree diffTreeOfOwnTrace(const Trace& trace);

} // namespace ts
