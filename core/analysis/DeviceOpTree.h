#pragma once
// The TensorBoard plugin's operator tree of a Kineto trace: per CPU thread,
// the host ops nested by time, each owning the runtime calls with its
// External id and, through them, the device work they launched. Gives each
// op its host self/total time, device self/total time (kernels, memcpy and
// memset) and Tensor-Core eligibility.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

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

struct OpNode {
    int32_t event = -1; // Trace::events index; -1 for a root
    int32_t lane = -1;
    OpNodeKind kind = OpNodeKind::Operator;
    PluginType type = PluginType::Operator;
    int64_t start = 0, end = 0; // ns
    int64_t external_id = -1;
    std::vector<int32_t> children; // node indices, by (start, -end)
    std::vector<int32_t> runtimes; // LaunchLinks::runtimes indices; kStaleRuntime: the stand-in
    // Times in ns, device times over kernels, memcpy and memset.
    int64_t self_host = 0;
    int64_t device_total = 0, device_self = 0;
    int64_t tc_total = 0, tc_self = 0; // device time of Tensor-Core kernels
    bool tc_eligible_by_name = false;
    bool tc_eligible = false;   // by name, or (an op) through a child or an own TC kernel
    bool real_operator = false; // counted in the operator and memory views
};

struct DeviceOpTree {
    static constexpr int32_t kStaleRuntime = -2;
    std::vector<OpNode> nodes;
    std::vector<int32_t> roots; // one per thread with host ops, in order of appearance

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
