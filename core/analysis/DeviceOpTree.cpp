#include "analysis/DeviceOpTree.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "analysis/NameFlags.h"
#include "trace/KinetoNames.h"

namespace ts {

static_assert(sizeof(OpNode) <= 88, "a node per host op: keep it small");

namespace {

constexpr int64_t kMinTime = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxTime = std::numeric_limits<int64_t>::max();

// The node kind of a host event, or false when the plugin leaves it out of
// the tree (user annotations other than collectives).
bool nodeKindOf(PluginType type, uint32_t name_index, const NameFlags& flags, OpNodeKind& kind) {
    if (type == PluginType::ProfilerStep) {
        kind = OpNodeKind::Step;
        return true;
    }
    if (flags.dataLoader(name_index)) {
        kind = OpNodeKind::DataLoader;
        return true;
    }
    if (flags.optimizerStep(name_index)) {
        kind = OpNodeKind::Optimizer;
        return true;
    }
    if (type == PluginType::UserAnnotation && !flags.collective(name_index)) return false;
    kind = OpNodeKind::Operator;
    return true;
}

bool isRealOperator(const OpNode& n, uint32_t name_index, const NameFlags& flags) {
    return n.kind == OpNodeKind::Operator && n.type == PluginType::Operator &&
           !flags.notAnOperator(name_index);
}

struct RuntimeTimes {
    std::vector<int64_t> device, tc; // per runtime call
    int64_t stale_device = 0, stale_tc = 0;
};

// The nesting while the tree is built: children as linked lists, which
// take appends in any order; flattened into DeviceOpTree::child_list at the
// end.
struct NodeLinks {
    int32_t first_child = -1, last_child = -1, next_sibling = -1;
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
    void appendChild(int32_t parent, int32_t child);
    void flattenChildren();
    const std::string& name(const OpNode& n) const { return tree_.nameOf(trace_, n); }

    const Trace& trace_;
    const KinetoEvents& events_;
    const LaunchLinks& links_;
    const GpuAnalysisOptions& options_;
    const NameFlags flags_{trace_.names, options_.plugin_compatible};
    DeviceOpTree tree_;
    std::vector<NodeLinks> nesting_; // per node, while building
    std::vector<int32_t> lane_order_;
    std::map<int32_t, std::vector<int32_t>> lane_nodes_; // lane -> host nodes, time order
    std::map<int32_t, std::vector<int32_t>> zero_ext_;   // lane -> runtime calls (External id 0)
    RuntimeTimes times_;
};

void TreeBuilder::collectHostNodes() {
    // Reserved once (host events and a root per lane): growing a vector of
    // millions of nodes by doubling copies them and touches twice the memory.
    const auto host = std::count_if(events_.events.begin(), events_.events.end(),
                                    [](const KinetoEvent& e) { return isHostType(e.type); });
    tree_.nodes.reserve(size_t(host) + trace_.lanes.size());
    nesting_.reserve(tree_.nodes.capacity());
    for (const KinetoEvent& e : events_.events) {
        if (!isHostType(e.type)) continue;
        const EventCore& core = trace_.events.core(size_t(e.event));
        OpNodeKind kind;
        if (!nodeKindOf(e.type, core.name, flags_, kind)) continue;
        OpNode node;
        node.event = e.event;
        node.lane = core.lane;
        node.kind = kind;
        node.type = e.type;
        node.start = e.start;
        node.end = e.end;
        node.tc_eligible_by_name = flags_.tensorCoreEligibleOp(core.name);
        node.tc_eligible = node.tc_eligible_by_name;
        node.real_operator = isRealOperator(node, core.name, flags_);
        if (!lane_nodes_.count(node.lane)) lane_order_.push_back(node.lane);
        lane_nodes_[node.lane].push_back(static_cast<int32_t>(tree_.nodes.size()));
        tree_.nodes.push_back(node);
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
    if (by_external.empty()) return;
    for (int32_t lane : lane_order_) {
        for (int32_t n : lane_nodes_[lane]) {
            OpNode& node = tree_.nodes[n];
            const std::optional<EventIds> ids = trace_.events.ids(size_t(node.event));
            if (!ids || ids->external_id <= 0) continue;
            auto it = by_external.find(ids->external_id);
            if (it == by_external.end()) continue;
            node.runtimes_begin = static_cast<uint32_t>(tree_.runtime_list.size());
            node.runtimes_count = static_cast<uint32_t>(it->second.size());
            tree_.runtime_list.insert(tree_.runtime_list.end(), it->second.begin(),
                                      it->second.end());
            by_external.erase(it);
        }
    }
}

void TreeBuilder::nest(int32_t lane, const std::vector<int32_t>& host, bool has_step) {
    std::vector<int32_t> ops = host;
    auto before = [&](int32_t a, int32_t b) {
        const OpNode& x = tree_.nodes[a];
        const OpNode& y = tree_.nodes[b];
        if (x.start != y.start) return x.start < y.start;
        return x.end > y.end;
    };
    // Host events come in time order, so this is mostly sorted already; the
    // check spares the sort's buffer.
    if (!std::is_sorted(ops.begin(), ops.end(), before))
        std::stable_sort(ops.begin(), ops.end(), before);
    OpNode root;
    root.kind = OpNodeKind::Root;
    root.type = PluginType::Python;
    root.lane = lane;
    root.start = kMinTime;
    root.end = kMaxTime;
    const std::vector<int32_t>& zero_ext = zero_ext_[lane];
    std::vector<int32_t>& runtimes = tree_.runtime_list;
    root.runtimes_begin = static_cast<uint32_t>(runtimes.size());
    runtimes.insert(runtimes.end(), zero_ext.begin(), zero_ext.end());
    if (has_step && !links_.stale.device.empty()) runtimes.push_back(DeviceOpTree::kStaleRuntime);
    root.runtimes_count = static_cast<uint32_t>(runtimes.size() - root.runtimes_begin);
    const auto root_index = static_cast<int32_t>(tree_.nodes.size());
    tree_.nodes.push_back(root);
    nesting_.resize(tree_.nodes.size());
    std::vector<int32_t> stack{root_index};
    for (int32_t n : ops) {
        const OpNode& node = tree_.nodes[n];
        while (!stack.empty()) {
            OpNode& top = tree_.nodes[stack.back()];
            if (node.start < top.end) {
                // A partial overlap on one thread is dropped, as the plugin does.
                if (node.end <= top.end) {
                    appendChild(stack.back(), n);
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
    const NodeLinks& l = nesting_[size_t(root_index)];
    if (l.first_child >= 0) {
        r.start = tree_.nodes[l.first_child].start;
        r.end = tree_.nodes[l.last_child].end;
    }
    tree_.roots.push_back(root_index);
}

void TreeBuilder::appendChild(int32_t parent, int32_t child) {
    NodeLinks& p = nesting_[size_t(parent)];
    if (p.last_child >= 0)
        nesting_[size_t(p.last_child)].next_sibling = child;
    else
        p.first_child = child;
    p.last_child = child;
}

void TreeBuilder::flattenChildren() {
    std::vector<int32_t>& list = tree_.child_list;
    list.reserve(tree_.nodes.size());
    for (size_t n = 0; n < tree_.nodes.size(); ++n) {
        OpNode& node = tree_.nodes[n];
        node.children_begin = static_cast<uint32_t>(list.size());
        for (int32_t c = nesting_[n].first_child; c >= 0; c = nesting_[size_t(c)].next_sibling)
            list.push_back(c);
        node.children_count = static_cast<uint32_t>(list.size() - node.children_begin);
    }
    nesting_ = {};
}

// A single child with the parent's name (aten::mm inside aten::mm) is merged
// into the parent, which takes the child's children and runtime calls, as
// torch.autograd.profiler does.
void TreeBuilder::removeDuplicates(int32_t index) {
    for (;;) {
        OpNode& node = tree_.nodes[index];
        NodeLinks& links = nesting_[size_t(index)];
        if (links.first_child < 0 || links.first_child != links.last_child) break;
        const int32_t only = links.first_child;
        const OpNode& child = tree_.nodes[only];
        if (node.type != PluginType::Operator || child.type != PluginType::Operator ||
            node.kind == OpNodeKind::Root || name(node) != name(child))
            break;
        links.first_child = nesting_[size_t(only)].first_child;
        links.last_child = nesting_[size_t(only)].last_child;
        node.runtimes_begin = child.runtimes_begin;
        node.runtimes_count = child.runtimes_count;
    }
    for (int32_t c = nesting_[size_t(index)].first_child; c >= 0;
         c = nesting_[size_t(c)].next_sibling)
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
    const int32_t first_child = nesting_[size_t(index)].first_child;
    for (int32_t c = first_child; c >= 0; c = nesting_[size_t(c)].next_sibling)
        fill(c);
    OpNode& node = tree_.nodes[index];
    const bool op = node.type == PluginType::Operator;
    const bool root = node.kind == OpNodeKind::Root;
    node.self_host = root ? 0 : node.end - node.start;
    for (int32_t c = first_child; c >= 0; c = nesting_[size_t(c)].next_sibling) {
        const OpNode& child = tree_.nodes[c];
        node.device_total += child.device_total;
        if (!root) node.self_host -= child.end - child.start;
        node.tc_total += child.tc_total;
        if (op && child.tc_eligible) node.tc_eligible = true;
    }
    auto runtimes = tree_.runtime_list.begin() + node.runtimes_begin;
    std::stable_sort(runtimes, runtimes + node.runtimes_count, [&](int32_t a, int32_t b) {
        if (a < 0 || b < 0) return b < 0 && a >= 0; // the stale stand-in last
        const RuntimeCall& x = links_.runtimes[a];
        const RuntimeCall& y = links_.runtimes[b];
        if (x.start != y.start) return x.start < y.start;
        return x.end > y.end;
    });
    for (int32_t r : tree_.runtimes(index)) {
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
    nesting_.resize(tree_.nodes.size());
    attachRuntimes();
    runtimeTimes();
    for (int32_t lane : lane_order_) {
        const std::vector<int32_t>& host = lane_nodes_[lane];
        const bool has_step = std::any_of(host.begin(), host.end(), [&](int32_t n) {
            return tree_.nodes[n].kind == OpNodeKind::Step;
        });
        nest(lane, host, has_step);
    }
    flattenChildren();
    return std::move(tree_);
}

void postOrder(const DeviceOpTree& tree, int32_t node, const std::function<void(int32_t)>& visit) {
    for (int32_t c : tree.children(node))
        postOrder(tree, c, visit);
    visit(node);
}

void ownedWork(const DeviceOpTree& tree, const LaunchLinks& links, int32_t node,
               const std::function<void(int32_t, int32_t)>& visit) {
    for (int32_t c : tree.children(node))
        ownedWork(tree, links, c, visit);
    for (int32_t r : tree.runtimes(node)) {
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
