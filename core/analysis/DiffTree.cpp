#include "analysis/DiffTree.h"

#include <algorithm>
#include <map>

namespace ts {

namespace {

// Kind and name, as the plugin; DataLoader nodes by kind alone (a deliberate
// difference): the iterator's class is in the name, so a run with loader
// workers (_MultiProcessingDataLoaderIter) would never match one without
// (_SingleProcessDataLoaderIter), and that is the comparison people make.
bool sameMatch(const DiffHostNode& x, const DiffHostNode& y) {
    if (x.kind != y.kind) return false;
    return x.kind == DiffNodeKind::DataLoader || x.name == y.name;
}

void aggregate(const DiffHostTree& tree, int32_t node,
               std::map<std::string, DiffOpAggregate>& out) {
    const DiffHostNode& n = tree.nodes[node];
    if (n.real_operator) {
        DiffOpAggregate& agg = out[n.name];
        agg.name = n.name;
        ++agg.calls;
        agg.host_ns += n.hostNs();
        agg.device_ns += n.device_total_ns;
        agg.self_host_ns += n.self_host_ns;
        agg.self_device_ns += n.device_self_ns;
    }
    for (int32_t child : n.children)
        aggregate(tree, child, out);
}

std::vector<int32_t> slice(const std::vector<int32_t>& list, size_t begin, size_t end) {
    return {list.begin() + static_cast<std::ptrdiff_t>(begin),
            list.begin() + static_cast<std::ptrdiff_t>(end)};
}

void fillChildren(DiffNode& node, const DiffHostTree& a, const std::vector<int32_t>& list_a,
                  const DiffHostTree& b, const std::vector<int32_t>& list_b);

DiffNode nodeOfPair(const std::string& path, bool matched, const DiffHostTree& a,
                    const std::vector<int32_t>& nodes_a, const DiffHostTree& b,
                    const std::vector<int32_t>& nodes_b) {
    DiffNode node;
    node.path = path;
    node.matched = matched;
    node.a = summarizeSide(a, nodes_a);
    node.b = summarizeSide(b, nodes_b);
    // Single against single: their children; list against list: the lists;
    // anything against a blank, or a single against a list: a leaf.
    if (nodes_a.size() == 1 && nodes_b.size() == 1)
        fillChildren(node, a, a.nodes[nodes_a[0]].children, b, b.nodes[nodes_b[0]].children);
    else if (nodes_a.size() > 1 && nodes_b.size() > 1)
        fillChildren(node, a, nodes_a, b, nodes_b);
    return node;
}

void fillChildren(DiffNode& node, const DiffHostTree& a, const std::vector<int32_t>& list_a,
                  const DiffHostTree& b, const std::vector<int32_t>& list_b) {
    const std::vector<DiffSlicePair> pairs = pairTopLevel(a, list_a, b, list_b);
    for (size_t i = 0; i < pairs.size(); ++i) {
        const DiffSlicePair& p = pairs[i];
        node.children.push_back(nodeOfPair(node.path + "-" + std::to_string(i), p.matched, a,
                                           slice(list_a, p.a_begin, p.a_end), b,
                                           slice(list_b, p.b_begin, p.b_end)));
    }
}

} // namespace

std::vector<DiffSlicePair> pairTopLevel(const DiffHostTree& a, const std::vector<int32_t>& list_a,
                                        const DiffHostTree& b, const std::vector<int32_t>& list_b) {
    std::vector<DiffSlicePair> pairs;
    size_t a_from = 0, b_from = 0; // the first node of each side not yet paired
    for (size_t i = 0; i < list_a.size(); ++i) {
        const DiffHostNode& left = a.nodes[list_a[i]];
        if (!isMatchable(left.kind)) continue;
        size_t j = b_from;
        while (j < list_b.size() && !sameMatch(left, b.nodes[list_b[j]]))
            ++j;
        if (j == list_b.size()) continue;
        if (a_from < i || b_from < j) pairs.push_back({a_from, i, b_from, j, false});
        pairs.push_back({i, i + 1, j, j + 1, true});
        a_from = i + 1;
        b_from = j + 1;
    }
    if (pairs.empty()) return pairs;
    if (a_from < list_a.size() || b_from < list_b.size())
        pairs.push_back({a_from, list_a.size(), b_from, list_b.size(), false});
    return pairs;
}

DiffNodeSide summarizeSide(const DiffHostTree& tree, const std::vector<int32_t>& nodes) {
    DiffNodeSide side;
    side.nodes = static_cast<int64_t>(nodes.size());
    if (nodes.empty()) return side;
    side.blank = false;
    side.composite = nodes.size() > 1;
    const DiffHostNode& first = tree.nodes[nodes.front()];
    const DiffHostNode& last = tree.nodes[nodes.back()];
    side.name = side.composite ? first.name + " … " + last.name + " (" +
                                     std::to_string(nodes.size()) + " nodes)"
                               : first.name;
    side.start_ns = first.start_ns;
    std::map<std::string, DiffOpAggregate> aggs;
    for (int32_t index : nodes) {
        const DiffHostNode& n = tree.nodes[index];
        side.end_ns = std::max(side.end_ns, n.end_ns);
        side.duration_ns += n.hostNs();
        side.device_duration_ns += n.device_total_ns;
        side.total_duration_ns += n.device_total_ns > 0 ? n.device_total_ns : n.hostNs();
        aggregate(tree, index, aggs);
    }
    for (auto& [name, agg] : aggs)
        side.aggregates.push_back(std::move(agg));
    return side;
}

DiffNode compareTrees(const DiffHostTree& a, const std::vector<int32_t>& list_a,
                      const DiffHostTree& b, const std::vector<int32_t>& list_b) {
    DiffNode root;
    root.path = "0";
    root.a = summarizeSide(a, list_a);
    root.b = summarizeSide(b, list_b);
    fillChildren(root, a, list_a, b, list_b);
    return root;
}

} // namespace ts
