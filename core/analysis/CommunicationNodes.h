#pragma once
// The collective calls of one rank's Kineto trace, as the distributed view
// matches them across ranks: each with its host range, the device work it
// launched, its message size and the step it ran in (the TensorBoard
// plugin's communication nodes, docs/gpu-traces.md "Distributed view").
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/GpuOverview.h"

namespace ts {

struct CommNode {
    std::string name; // "nccl:all_reduce"
    int64_t start_ns = 0, end_ns = 0;
    int64_t bytes = 0; // the inputs' elements times their type's size
    // The host call first (the plugin counts its range as the first "kernel"
    // range), then its kernels by (start, -end).
    RangeList ranges;
    int32_t step = -1; // index into GpuOverview::steps; -1 outside every step
    // Its process group's name and its number in that group (PyTorch 2's
    // "Process Group Name" and "Seq" on record_param_comms or its kernels);
    // seq -1 where the trace does not say.
    std::string group;
    int64_t seq = -1;
};

// Plugin-compatible: every host event named like one of the plugin's ten
// collectives is a node, keyed by External id (a later one with the same id
// replaces the earlier), NCCL kernels join it by External id, and a trace
// with both NCCL and Gloo collectives has none. Trainscope's rules: nested
// collectives (c10d::allreduce_ > record_param_comms > nccl:all_reduce) are
// one node named by its nccl:/gloo: event and sized by that event's inputs,
// and the kernels launched from inside the call join it too (newer PyTorch
// gives NCCL kernels no External id of the call); when the library's calls
// stand alone (PyTorch 2's Gloo on the CPU: gloo: ranges on Gloo's threads,
// the c10d:: calls on the caller's), the c10d:: calls that wrap none are
// not counted again. A node's group and Seq are those of the first of its
// events (host call or kernel) that carries them.
std::vector<CommNode> collectCommNodes(const Trace& trace, const KinetoEvents& events,
                                       const LaunchLinks& links, const GpuOverview& overview,
                                       const GpuAnalysisOptions& options);

// Bytes of a call's inputs from the trace's "Input Dims" and "Input type"
// (JSON text): per input the product of its dimensions times the size of its
// type. The plugin knows long int, float, int, c10::Half, c10::BFloat16 and
// unsigned char (others count 0); Trainscope knows the other ATen types too.
int64_t inputBytes(const std::string& dims_json, const std::string& types_json,
                   bool plugin_compatible);

} // namespace ts
