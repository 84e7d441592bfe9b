#pragma once
// The TensorBoard plugin's operator tree of a Kineto trace: per CPU thread,
// the host ops nested by time, each owning the runtime calls with its
// External id and, through them, the device work they launched. Gives each
// op its host self/total time, device self/total time (kernels, memcpy and
// memset) and Tensor-Core eligibility.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/IndexSpan.h"
#include "analysis/KinetoEvents.h"
#include "analysis/LaunchLinks.h"

namespace ts {

enum class OpNodeKind : uint8_t {
    Root,       // one per thread ("CallTreeRoot")
    Operator,   // an op (or a collective's user annotation)
    DataLoader, // enumerate(DataLoader)#...__next__
    Optimizer,  // Optimizer.step#...
    Step,       // ProfilerStep#N
};

// Node indices (children) or runtime-call indices of one node: a view into
// one of the tree's flat lists, valid as long as the tree.
using NodeIndices = IndexSpan;

// 72 bytes: a large trace has millions of host ops, so a node holds no
// vectors of its own (its children and runtime calls are ranges of the
// tree's flat lists) and no time range (its event's, in the event store:
// DeviceOpTree::start and end).
struct OpNode {
    int32_t event = -1; // Trace::events index; -1 for a root
    int32_t lane = -1;
    OpNodeKind kind = OpNodeKind::Operator;
    PluginType type = PluginType::Operator;
    bool tc_eligible_by_name = false;
    bool tc_eligible = false;   // by name, or (an op) through a child or an own TC kernel
    bool real_operator = false; // counted in the operator and memory views
    uint32_t children_begin = 0, children_count = 0; // in DeviceOpTree::child_list
    uint32_t runtimes_begin = 0, runtimes_count = 0; // in DeviceOpTree::runtime_list
    // Times in ns, device times over kernels, memcpy and memset.
    int64_t self_host = 0;
    int64_t device_total = 0, device_self = 0;
    int64_t tc_total = 0, tc_self = 0; // device time of Tensor-Core kernels
};

struct DeviceOpTree {
    static constexpr int32_t kStaleRuntime = -2;
    std::vector<OpNode> nodes;
    std::vector<int32_t> roots;        // one per thread with host ops, in order of appearance
    std::vector<int32_t> child_list;   // each node's children, by (start, -end)
    std::vector<int32_t> runtime_list; // LaunchLinks::runtimes indices; kStaleRuntime: the stand-in
    // A root's time range, by lane: from its first child's start to its last
    // child's end (the whole time line while nesting).
    std::vector<std::pair<int64_t, int64_t>> root_spans;

    // A node's host time range in ns: its event's, or its root span. `trace`
    // is the one the tree was built from.
    int64_t start(const Trace& trace, const OpNode& n) const {
        return n.event >= 0 ? trace.events.core(size_t(n.event)).start_ns
                            : root_spans[size_t(n.lane)].first;
    }
    int64_t end(const Trace& trace, const OpNode& n) const {
        return n.event >= 0 ? trace.events.core(size_t(n.event)).end_ns()
                            : root_spans[size_t(n.lane)].second;
    }

    NodeIndices children(int32_t node) const {
        const OpNode& n = nodes[size_t(node)];
        return {child_list.data() + n.children_begin, n.children_count};
    }
    NodeIndices runtimes(int32_t node) const {
        const OpNode& n = nodes[size_t(node)];
        return {runtime_list.data() + n.runtimes_begin, n.runtimes_count};
    }
    const std::string& nameOf(const Trace& trace, const OpNode& node) const;
    // Post-order (children first), from each root; the roots themselves last.
    void visitPostOrder(const std::function<void(int32_t node)>& visit) const;
};

DeviceOpTree buildDeviceOpTree(const Trace& trace, const KinetoEvents& events,
                               const LaunchLinks& links, const GpuAnalysisOptions& options);

// Device work owned by each node, in the plugin's order (depth first,
// children before a node's own runtime calls): visit(owner node, position in
// KinetoEvents::events).
void visitOwnedDeviceWork(const DeviceOpTree& tree, const LaunchLinks& links,
                          const std::function<void(int32_t node, int32_t position)>& visit);

} // namespace ts
