#include "analysis/DeviceOpTree.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "analysis/NameFlags.h"
#include "trace/KinetoNames.h"

namespace ts {

static_assert(sizeof(OpNode) <= 72, "a node per host op: keep it small");

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

// The nesting while the tree is built: children as linked lists, flattened
// into DeviceOpTree::child_list at the end. A node's last child is known
// only while it is open (on the nesting stack), where appends happen.
struct NodeLinks {
    int32_t first_child = -1, next_sibling = -1;
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
    // Sorts `ops` (the lane's host nodes) in place.
    void nest(int32_t lane, std::vector<int32_t>& ops, bool has_step);
    void finish(int32_t node);
    void removeDuplicates(int32_t node);
    void fill(int32_t node);
    void runtimeTimes();
    void flattenChildren();
    uint32_t nameIndex(const OpNode& n) const { return trace_.events.core(size_t(n.event)).name; }
    int64_t start(const OpNode& n) const { return tree_.start(trace_, n); }
    int64_t end(const OpNode& n) const { return tree_.end(trace_, n); }

    const Trace& trace_;
    const KinetoEvents& events_;
    const LaunchLinks& links_;
    const GpuAnalysisOptions& options_;
    const NameFlags flags_{trace_.names, options_.plugin_compatible};
    DeviceOpTree tree_;
    std::vector<NodeLinks> nesting_; // per node, while building
    std::vector<int32_t> lane_order_;
    // By lane (Trace::lanes index): host nodes in time order, and runtime
    // calls with External id 0. Vectors, not maps: every host op is looked up.
    std::vector<std::vector<int32_t>> lane_nodes_, zero_ext_;
    RuntimeTimes times_;
};

void TreeBuilder::collectHostNodes() {
    // Reserved once (host events and a root per lane): growing a vector of
    // millions of nodes by doubling copies them and touches twice the memory.
    std::vector<size_t> per_lane(trace_.lanes.size(), 0);
    size_t host = 0;
    for (const KinetoEvent& e : events_.events)
        if (isHostType(e.type)) ++host, ++per_lane[trace_.events.core(size_t(e.event)).lane];
    tree_.nodes.reserve(host + trace_.lanes.size());
    nesting_.reserve(tree_.nodes.capacity());
    lane_nodes_.resize(trace_.lanes.size());
    tree_.root_spans.assign(trace_.lanes.size(), {0, 0});
    zero_ext_.resize(trace_.lanes.size());
    for (size_t lane = 0; lane < per_lane.size(); ++lane)
        lane_nodes_[lane].reserve(per_lane[lane]);
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
        node.tc_eligible_by_name = flags_.tensorCoreEligibleOp(core.name);
        node.tc_eligible = node.tc_eligible_by_name;
        node.real_operator = isRealOperator(node, core.name, flags_);
        std::vector<int32_t>& on_lane = lane_nodes_[size_t(node.lane)];
        if (on_lane.empty()) lane_order_.push_back(node.lane);
        on_lane.push_back(static_cast<int32_t>(tree_.nodes.size()));
        tree_.nodes.push_back(node);
    }
}

// Each host op takes every runtime call with its External id (the first op
// with that id in thread order wins); calls with External id 0 belong to
// their thread's root.
void TreeBuilder::attachRuntimes() {
    // (External id, call) pairs sorted: each id's calls in call order, one
    // block per id, without the vector per id a hash map of lists allocates.
    std::vector<std::pair<int64_t, int32_t>> by_external;
    for (size_t r = 0; r < links_.runtimes.size(); ++r) {
        const RuntimeCall& call = links_.runtimes[r];
        if (call.external_id == 0) {
            zero_ext_[trace_.events.core(size_t(call.event)).lane].push_back(
                static_cast<int32_t>(r));
            continue;
        }
        if (call.external_id > 0) by_external.emplace_back(call.external_id, int32_t(r));
    }
    if (by_external.empty()) return;
    std::sort(by_external.begin(), by_external.end());
    std::vector<char> taken(by_external.size(), 0); // by a block's first pair
    for (int32_t lane : lane_order_) {
        for (int32_t n : lane_nodes_[size_t(lane)]) {
            OpNode& node = tree_.nodes[n];
            const std::optional<EventIds> ids = trace_.events.ids(size_t(node.event));
            if (!ids || ids->external_id <= 0) continue;
            const auto first = std::lower_bound(by_external.begin(), by_external.end(),
                                                std::make_pair(ids->external_id, INT32_MIN));
            if (first == by_external.end() || first->first != ids->external_id) continue;
            char& block_taken = taken[size_t(first - by_external.begin())];
            if (block_taken) continue; // an earlier op with this id has them
            block_taken = 1;
            node.runtimes_begin = static_cast<uint32_t>(tree_.runtime_list.size());
            for (auto it = first; it != by_external.end() && it->first == first->first; ++it)
                tree_.runtime_list.push_back(it->second);
            node.runtimes_count =
                static_cast<uint32_t>(tree_.runtime_list.size() - node.runtimes_begin);
        }
    }
}

void TreeBuilder::nest(int32_t lane, std::vector<int32_t>& ops, bool has_step) {
    auto before = [&](int32_t a, int32_t b) {
        const OpNode& x = tree_.nodes[a];
        const OpNode& y = tree_.nodes[b];
        if (start(x) != start(y)) return start(x) < start(y);
        return end(x) > end(y);
    };
    // Host events come in time order, so this is mostly sorted already; the
    // check spares the sort's buffer.
    if (!std::is_sorted(ops.begin(), ops.end(), before))
        std::stable_sort(ops.begin(), ops.end(), before);
    OpNode root;
    root.kind = OpNodeKind::Root;
    root.type = PluginType::Python;
    root.lane = lane;
    tree_.root_spans[size_t(lane)] = {kMinTime, kMaxTime};
    const std::vector<int32_t>& zero_ext = zero_ext_[lane];
    std::vector<int32_t>& runtimes = tree_.runtime_list;
    root.runtimes_begin = static_cast<uint32_t>(runtimes.size());
    runtimes.insert(runtimes.end(), zero_ext.begin(), zero_ext.end());
    if (has_step && !links_.stale.device.empty()) runtimes.push_back(DeviceOpTree::kStaleRuntime);
    root.runtimes_count = static_cast<uint32_t>(runtimes.size() - root.runtimes_begin);
    const auto root_index = static_cast<int32_t>(tree_.nodes.size());
    tree_.nodes.push_back(root);
    nesting_.resize(tree_.nodes.size());
    struct Open {
        int32_t node, last_child;
    };
    std::vector<Open> stack{{root_index, -1}};
    int32_t root_last = -1; // the root's last child
    for (int32_t n : ops) {
        const OpNode& node = tree_.nodes[n];
        const int64_t node_start = start(node), node_end = end(node);
        while (!stack.empty()) {
            Open& top = stack.back();
            const int64_t top_end = end(tree_.nodes[top.node]);
            if (node_start < top_end) {
                // A partial overlap on one thread is dropped, as the plugin does.
                if (node_end <= top_end) {
                    if (top.last_child >= 0)
                        nesting_[size_t(top.last_child)].next_sibling = n;
                    else
                        nesting_[size_t(top.node)].first_child = n;
                    top.last_child = n;
                    if (top.node == root_index) root_last = n;
                    stack.push_back(Open{n, -1});
                }
                break;
            }
            stack.pop_back();
        }
    }
    finish(root_index);
    const int32_t root_first = nesting_[size_t(root_index)].first_child;
    if (root_first >= 0)
        tree_.root_spans[size_t(lane)] = {start(tree_.nodes[root_first]),
                                          end(tree_.nodes[root_last])};
    tree_.roots.push_back(root_index);
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

// The subtree at `index`, once nested: duplicates removed top-down, times
// filled bottom-up, in one walk (two walks over millions of nodes cost twice
// the memory traffic). fill(index) reads only its children, filled before it.
void TreeBuilder::finish(int32_t index) {
    removeDuplicates(index);
    for (int32_t c = nesting_[size_t(index)].first_child; c >= 0;
         c = nesting_[size_t(c)].next_sibling)
        finish(c);
    fill(index);
}

// A single child with the parent's name (aten::mm inside aten::mm) is merged
// into the parent, which takes the child's children and runtime calls, as
// torch.autograd.profiler does. Names are interned: equal indices, equal names.
void TreeBuilder::removeDuplicates(int32_t index) {
    for (;;) {
        OpNode& node = tree_.nodes[index];
        NodeLinks& links = nesting_[size_t(index)];
        const int32_t only = links.first_child;
        if (only < 0 || nesting_[size_t(only)].next_sibling >= 0) break; // not a single child
        const OpNode& child = tree_.nodes[only];
        if (node.type != PluginType::Operator || child.type != PluginType::Operator ||
            node.kind == OpNodeKind::Root || nameIndex(node) != nameIndex(child))
            break;
        links.first_child = nesting_[size_t(only)].first_child;
        node.runtimes_begin = child.runtimes_begin;
        node.runtimes_count = child.runtimes_count;
    }
}

void TreeBuilder::runtimeTimes() {
    auto sum = [&](const DevicePositions& device, int64_t& all, int64_t& tc) {
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
    OpNode& node = tree_.nodes[index];
    const bool op = node.type == PluginType::Operator;
    const bool root = node.kind == OpNodeKind::Root;
    node.self_host = root ? 0 : end(node) - start(node);
    for (int32_t c = first_child; c >= 0; c = nesting_[size_t(c)].next_sibling) {
        const OpNode& child = tree_.nodes[c];
        node.device_total += child.device_total;
        if (!root) node.self_host -= end(child) - start(child);
        node.tc_total += child.tc_total;
        if (op && child.tc_eligible) node.tc_eligible = true;
    }
    auto runtimes = tree_.runtime_list.begin() + node.runtimes_begin;
    if (node.runtimes_count == 0) return; // most host ops launch nothing
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
        std::vector<int32_t>& host = lane_nodes_[size_t(lane)];
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
