#include "analysis/DeviceOpTree.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

#include "analysis/NameFlags.h"
#include "trace/KinetoNames.h"

namespace ts {

namespace {

constexpr int64_t kMinTime = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxTime = std::numeric_limits<int64_t>::max();

// The node kind of a host event, or false when the plugin leaves it out of
// the tree (user annotations other than collectives).
bool nodeKindOf(PluginType type, uint32_t name_index, const std::string& name,
                const NameFlags& flags, OpNodeKind& kind) {
    if (type == PluginType::ProfilerStep) {
        kind = OpNodeKind::Step;
        return true;
    }
    if (flags.dataLoader(name_index)) {
        kind = OpNodeKind::DataLoader;
        return true;
    }
    if (name.rfind("Optimizer.step", 0) == 0) {
        kind = OpNodeKind::Optimizer;
        return true;
    }
    if (type == PluginType::UserAnnotation && !flags.collective(name_index)) return false;
    kind = OpNodeKind::Operator;
    return true;
}

bool isRealOperator(const OpNode& n, const std::string& name) {
    return n.kind == OpNodeKind::Operator && n.type == PluginType::Operator &&
           name != "DataParallel.forward" && name != "DistributedDataParallel.forward" &&
           name.rfind("Optimizer.", 0) != 0;
}

struct RuntimeTimes {
    std::vector<int64_t> device, tc; // per runtime call
    int64_t stale_device = 0, stale_tc = 0;
};

class TreeBuilder {
public:
    TreeBuilder(const Trace& trace, const KinetoEvents& events, const LaunchLinks& links,
                const GpuAnalysisOptions& options)
        : trace_(trace), events_(events), links_(links), options_(options) {}

    DeviceOpTree build();

private:
    void collectHostNodes();
    void attachRuntimes();
    void nest(int32_t lane, const std::vector<int32_t>& ops, bool has_step);
    void removeDuplicates(int32_t node);
    void fill(int32_t node);
    void runtimeTimes();
    const std::string& name(const OpNode& n) const { return tree_.nameOf(trace_, n); }

    const Trace& trace_;
    const KinetoEvents& events_;
    const LaunchLinks& links_;
    const GpuAnalysisOptions& options_;
    const NameFlags flags_{trace_.names, options_.plugin_compatible};
    DeviceOpTree tree_;
    std::vector<int32_t> lane_order_;
    std::map<int32_t, std::vector<int32_t>> lane_nodes_; // lane -> host nodes, time order
    std::map<int32_t, std::vector<int32_t>> zero_ext_;   // lane -> runtime calls (External id 0)
    RuntimeTimes times_;
};

void TreeBuilder::collectHostNodes() {
    for (const KinetoEvent& e : events_.events) {
        if (!isHostType(e.type)) continue;
        const EventCore& core = trace_.events.core(size_t(e.event));
        const std::string& n = trace_.names[core.name];
        OpNodeKind kind;
        if (!nodeKindOf(e.type, core.name, n, flags_, kind)) continue;
        OpNode node;
        node.event = e.event;
        node.lane = core.lane;
        node.kind = kind;
        node.type = e.type;
        node.start = e.start;
        node.end = e.end;
        node.external_id = e.external_id;
        node.tc_eligible_by_name = flags_.tensorCoreEligibleOp(core.name);
        node.tc_eligible = node.tc_eligible_by_name;
        node.real_operator = isRealOperator(node, n);
        if (!lane_nodes_.count(node.lane)) lane_order_.push_back(node.lane);
        lane_nodes_[node.lane].push_back(static_cast<int32_t>(tree_.nodes.size()));
        tree_.nodes.push_back(std::move(node));
    }
}

// Each host op takes every runtime call with its External id (the first op
// with that id in thread order wins); calls with External id 0 belong to
// their thread's root.
void TreeBuilder::attachRuntimes() {
    std::unordered_map<int64_t, std::vector<int32_t>> by_external;
    for (size_t r = 0; r < links_.runtimes.size(); ++r) {
        const RuntimeCall& call = links_.runtimes[r];
        if (call.external_id == 0) {
            zero_ext_[trace_.events.core(size_t(call.event)).lane].push_back(
                static_cast<int32_t>(r));
            continue;
        }
        if (call.external_id > 0) by_external[call.external_id].push_back(static_cast<int32_t>(r));
    }
    for (int32_t lane : lane_order_) {
        for (int32_t n : lane_nodes_[lane]) {
            OpNode& node = tree_.nodes[n];
            if (node.external_id <= 0) continue;
            auto it = by_external.find(node.external_id);
            if (it == by_external.end()) continue;
            node.runtimes = std::move(it->second);
            by_external.erase(it);
        }
    }
}

void TreeBuilder::nest(int32_t lane, const std::vector<int32_t>& host, bool has_step) {
    std::vector<int32_t> ops = host;
    std::stable_sort(ops.begin(), ops.end(), [&](int32_t a, int32_t b) {
        const OpNode& x = tree_.nodes[a];
        const OpNode& y = tree_.nodes[b];
        if (x.start != y.start) return x.start < y.start;
        return x.end > y.end;
    });
    OpNode root;
    root.kind = OpNodeKind::Root;
    root.type = PluginType::Python;
    root.lane = lane;
    root.start = kMinTime;
    root.end = kMaxTime;
    root.runtimes = zero_ext_[lane];
    if (has_step && !links_.stale.device.empty())
        root.runtimes.push_back(DeviceOpTree::kStaleRuntime);
    const auto root_index = static_cast<int32_t>(tree_.nodes.size());
    tree_.nodes.push_back(std::move(root));
    std::vector<int32_t> stack{root_index};
    for (int32_t n : ops) {
        const OpNode& node = tree_.nodes[n];
        while (!stack.empty()) {
            OpNode& top = tree_.nodes[stack.back()];
            if (node.start < top.end) {
                // A partial overlap on one thread is dropped, as the plugin does.
                if (node.end <= top.end) {
                    top.children.push_back(n);
                    stack.push_back(n);
                }
                break;
            }
            stack.pop_back();
        }
    }
    removeDuplicates(root_index);
    fill(root_index);
    OpNode& r = tree_.nodes[root_index];
    if (!r.children.empty()) {
        r.start = tree_.nodes[r.children.front()].start;
        r.end = tree_.nodes[r.children.back()].end;
    }
    tree_.roots.push_back(root_index);
}

// A single child with the parent's name (aten::mm inside aten::mm) is merged
// into the parent, which takes the child's children and runtime calls, as
// torch.autograd.profiler does.
void TreeBuilder::removeDuplicates(int32_t index) {
    for (;;) {
        OpNode& node = tree_.nodes[index];
        if (node.children.size() != 1) break;
        const OpNode& child = tree_.nodes[node.children.front()];
        if (node.type != PluginType::Operator || child.type != PluginType::Operator ||
            node.kind == OpNodeKind::Root || name(node) != name(child))
            break;
        std::vector<int32_t> children = child.children;
        std::vector<int32_t> runtimes = child.runtimes;
        node.children = std::move(children);
        node.runtimes = std::move(runtimes);
    }
    const std::vector<int32_t> children = tree_.nodes[index].children;
    for (int32_t c : children)
        removeDuplicates(c);
}

void TreeBuilder::runtimeTimes() {
    auto sum = [&](const std::vector<int32_t>& device, int64_t& all, int64_t& tc) {
        for (int32_t p : device) {
            const KinetoEvent& d = events_.events[p];
            all += d.end - d.start;
            if (flags_.tensorCoreKernel(trace_.events.core(size_t(d.event)).name))
                tc += d.end - d.start;
        }
    };
    times_.device.assign(links_.runtimes.size(), 0);
    times_.tc.assign(links_.runtimes.size(), 0);
    for (size_t r = 0; r < links_.runtimes.size(); ++r)
        sum(links_.runtimes[r].device, times_.device[r], times_.tc[r]);
    sum(links_.stale.device, times_.stale_device, times_.stale_tc);
}

void TreeBuilder::fill(int32_t index) {
    const std::vector<int32_t> children = tree_.nodes[index].children;
    for (int32_t c : children)
        fill(c);
    OpNode& node = tree_.nodes[index];
    const bool op = node.type == PluginType::Operator;
    const bool root = node.kind == OpNodeKind::Root;
    node.self_host = root ? 0 : node.end - node.start;
    for (int32_t c : node.children) {
        const OpNode& child = tree_.nodes[c];
        node.device_total += child.device_total;
        if (!root) node.self_host -= child.end - child.start;
        node.tc_total += child.tc_total;
        if (op && child.tc_eligible) node.tc_eligible = true;
    }
    std::stable_sort(node.runtimes.begin(), node.runtimes.end(), [&](int32_t a, int32_t b) {
        if (a < 0 || b < 0) return b < 0 && a >= 0; // the stale stand-in last
        const RuntimeCall& x = links_.runtimes[a];
        const RuntimeCall& y = links_.runtimes[b];
        if (x.start != y.start) return x.start < y.start;
        return x.end > y.end;
    });
    for (int32_t r : node.runtimes) {
        const bool stale = r == DeviceOpTree::kStaleRuntime;
        const int64_t device = stale ? times_.stale_device : times_.device[r];
        const int64_t tc = stale ? times_.stale_tc : times_.tc[r];
        if (!stale && !root) node.self_host -= links_.runtimes[r].end - links_.runtimes[r].start;
        node.device_total += device;
        node.device_self += device;
        node.tc_self += tc;
        node.tc_total += tc;
        if (op && tc > 0) node.tc_eligible = true;
    }
}

DeviceOpTree TreeBuilder::build() {
    collectHostNodes();
    attachRuntimes();
    runtimeTimes();
    for (int32_t lane : lane_order_) {
        const std::vector<int32_t>& host = lane_nodes_[lane];
        const bool has_step = std::any_of(host.begin(), host.end(), [&](int32_t n) {
            return tree_.nodes[n].kind == OpNodeKind::Step;
        });
        nest(lane, host, has_step);
    }
    return std::move(tree_);
}

void postOrder(const DeviceOpTree& tree, int32_t node, const std::function<void(int32_t)>& visit) {
    for (int32_t c : tree.nodes[node].children)
        postOrder(tree, c, visit);
    visit(node);
}

void ownedWork(const DeviceOpTree& tree, const LaunchLinks& links, int32_t node,
               const std::function<void(int32_t, int32_t)>& visit) {
    const OpNode& n = tree.nodes[node];
    for (int32_t c : n.children)
        ownedWork(tree, links, c, visit);
    for (int32_t r : n.runtimes) {
        const RuntimeCall& call =
            r == DeviceOpTree::kStaleRuntime ? links.stale : links.runtimes[r];
        for (int32_t p : call.device)
            visit(node, p);
    }
}

} // namespace

const std::string& DeviceOpTree::nameOf(const Trace& trace, const OpNode& node) const {
    static const std::string kRoot = "CallTreeRoot";
    return node.event >= 0 ? trace.names[trace.events.core(size_t(node.event)).name] : kRoot;
}

void DeviceOpTree::visitPostOrder(const std::function<void(int32_t)>& visit) const {
    for (int32_t root : roots)
        postOrder(*this, root, visit);
}

DeviceOpTree buildDeviceOpTree(const Trace& trace, const KinetoEvents& events,
                               const LaunchLinks& links, const GpuAnalysisOptions& options) {
    return TreeBuilder(trace, events, links, options).build();
}

void visitOwnedDeviceWork(const DeviceOpTree& tree, const LaunchLinks& links,
                          const std::function<void(int32_t, int32_t)>& visit) {
    for (int32_t root : tree.roots)
        ownedWork(tree, links, root, visit);
}

} // namespace ts
