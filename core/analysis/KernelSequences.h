#pragma once
// Holistic Trace Analysis' frequent CUDA kernel sequences: for each call of
// an operator, the GPU work it launched (kernels, copies and sets, in the
// order they started), and how often each sequence recurs,
// with its CPU and GPU time and its launch delays. A sequence of several
// short kernels that recurs often is a fusion candidate.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/DeviceActivity.h"

namespace ts {

struct SequenceOptions {
    // The calls whose name contains this text (case-sensitive, as HTA's
    // operator_name), the outermost of nested matches; "" every outermost
    // CPU operator (HTA needs a name).
    std::string operator_text;
    size_t min_pattern_len = 3; // HTA's default: calls with fewer kernels are left out
    // HTA's rule instead of the outermost match: only the matches at the
    // shallowest call depth (the autograd thread's calls counted below the
    // main thread's "## backward ##"), whatever is deeper. For the comparison.
    bool hta_shallowest = false;
};

// One position of a sequence, summed over its calls.
struct SequenceKernel {
    std::string name;
    int64_t total_ns = 0;
    int64_t delay_ns = 0; // from its launch call's end to its start, summed
};

struct KernelSequence {
    std::string op;                      // the calls' name
    std::vector<SequenceKernel> kernels; // in the order they started
    int64_t count = 0;
    int64_t cpu_ns = 0;          // the calls' durations, summed
    int64_t gpu_ns = 0;          // the work's durations, summed
    int64_t span_ns = 0;         // first start to last end on the GPU, summed
    int64_t first_delay_ns = 0;  // from the call's start to its first work's start, summed
    int64_t launch_delay_ns = 0; // every position's delay, summed
    int32_t longest = -1;        // the call with the longest GPU span (Trace::events index)
    std::string pattern() const; // "op|kernel|kernel..." (HTA's key)
};

struct KernelSequences {
    int64_t rank = 0;
    SequenceOptions options;
    size_t calls = 0;                      // matching calls with any GPU work
    std::vector<KernelSequence> sequences; // by count, then pattern (HTA's order)
    bool empty() const { return sequences.empty(); }
};

KernelSequences kernelSequences(const Trace& trace, const DeviceActivities& activity,
                                const SequenceOptions& options = {});

} // namespace ts
