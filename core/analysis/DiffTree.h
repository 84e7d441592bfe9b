#pragma once
// The TensorBoard plugin's tree compare of two traces (its diffrun,
// docs/gpu-traces.md "Diff view"): the two top-level operator lists are
// walked together; a DataLoader, Module, Backward, Optimizer or ProfilerStep
// node (and, in Trainscope's own traces, a phase annotation) matches the next
// node of the same kind and name on the other side (a DataLoader node: of the
// same kind; the plugin also wants the name, which differs with and without
// loader workers). Between two matches the
// unmatched nodes of each side form one composite pair; a pair of single
// nodes is compared again on their children, a pair of composites on the
// composites. Each node of the result says, per side, what it covers.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/DiffHostTree.h"

namespace ts {

// Per operator name, over the real operators in a side (nested ones included).
struct DiffOpAggregate {
    std::string name;
    int64_t calls = 0;
    int64_t host_ns = 0, device_ns = 0;           // totals (nested calls of one name count twice)
    int64_t self_host_ns = 0, self_device_ns = 0; // self times
};

struct DiffNodeSide {
    // The node's name; a composite is "<first> … <last> (N nodes)"; "" when blank.
    std::string name;
    bool blank = true;                // nothing on this side (the other side's nodes are unmatched)
    bool composite = false;           // several unmatched nodes
    int64_t nodes = 0;                // top-level nodes covered
    int64_t start_ns = 0, end_ns = 0; // first start, last end in the trace; 0, 0 when blank
    int64_t duration_ns = 0;          // Σ host durations
    int64_t device_duration_ns = 0;   // Σ device time launched beneath
    int64_t total_duration_ns = 0;    // Σ per node: device time, or host time when none
    std::vector<DiffOpAggregate> aggregates; // by name
};

struct DiffNode {
    std::string path;     // "0" for the root, "0-2" its third child, "0-2-0", ...
    bool matched = false; // a matched pair (else a composite/blank pair, or the root)
    DiffNodeSide a, b;
    std::vector<DiffNode> children;

    int64_t deltaNs() const { return b.total_duration_ns - a.total_duration_ns; }
};

// One pair of slices of the two lists: [a_begin, a_end) and [b_begin, b_end).
struct DiffSlicePair {
    size_t a_begin = 0, a_end = 0, b_begin = 0, b_end = 0;
    bool matched = false;
};

// The plugin's compare(): the pairs in order; empty when nothing matched.
std::vector<DiffSlicePair> pairTopLevel(const DiffHostTree& a, const std::vector<int32_t>& list_a,
                                        const DiffHostTree& b, const std::vector<int32_t>& list_b);

// The summary of some top-level nodes of one side.
DiffNodeSide summarizeSide(const DiffHostTree& tree, const std::vector<int32_t>& nodes);

// The diff tree of two top-level lists; the root's sides are the whole lists.
DiffNode compareTrees(const DiffHostTree& a, const std::vector<int32_t>& list_a,
                      const DiffHostTree& b, const std::vector<int32_t>& list_b);

} // namespace ts
