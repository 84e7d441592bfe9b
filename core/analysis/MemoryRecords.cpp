#include "analysis/MemoryRecords.h"

#include <algorithm>
#include <map>

namespace ts {

namespace {

// The plugin's device names; "" for device types it does not know (it skips them).
std::string deviceName(int type, int id) {
    if (type == 0) return "CPU";
    if (type == 1) return "GPU" + std::to_string(id);
    return {};
}

// The deepest node under `root` whose [start, end) holds t, marking every
// node on the way as reached; -1 when t is outside the root. Siblings never
// overlap (the tree drops partial overlaps), so the only candidate child is
// the last one starting at or before t.
int32_t descend(const Trace& trace, const DeviceOpTree& tree, int32_t root, int64_t t,
                std::vector<uint8_t>& reached) {
    const OpNode& r = tree.nodes[root];
    if (t < tree.start(trace, r) || t >= tree.end(trace, r)) return -1;
    int32_t at = root;
    for (;;) {
        reached[at] = 1;
        const NodeIndices kids = tree.children(at);
        auto it = std::upper_bound(kids.begin(), kids.end(), t, [&](int64_t v, int32_t c) {
            return v < tree.start(trace, tree.nodes[c]);
        });
        if (it == kids.begin() || t >= tree.end(trace, tree.nodes[*(it - 1)])) return at;
        at = *(it - 1);
    }
}

std::vector<int32_t> parentsOf(const DeviceOpTree& tree) {
    std::vector<int32_t> parent(tree.nodes.size(), -1);
    for (size_t n = 0; n < tree.nodes.size(); ++n)
        for (int32_t c : tree.children(static_cast<int32_t>(n)))
            parent[c] = static_cast<int32_t>(n);
    return parent;
}

// Each record goes to the real operator it falls in on its lane's tree.
void attribute(const Trace& trace, const DeviceOpTree& tree, const std::vector<int32_t>& lanes,
               MemoryRecords& all) {
    std::map<int32_t, int32_t> root_of_lane;
    for (int32_t root : tree.roots)
        root_of_lane.emplace(tree.nodes[root].lane, root);
    all.reached.assign(tree.nodes.size(), 0);
    for (size_t i = 0; i < all.records.size(); ++i) {
        auto it = root_of_lane.find(lanes[i]);
        if (it == root_of_lane.end()) continue;
        const int32_t deepest = descend(trace, tree, it->second, all.records[i].t_ns, all.reached);
        if (deepest >= 0 && tree.nodes[deepest].real_operator) all.records[i].node = deepest;
    }
}

MemoryRecords kinetoRecords(const Trace& trace, std::vector<int32_t>& lanes) {
    MemoryRecords all;
    const std::vector<DeviceMemoryEvent>& memory = trace.kineto.memory;
    // The device names, once per (type, id): a trace has millions of records
    // on a few devices.
    std::map<std::pair<int32_t, int32_t>, std::string> name_of;
    for (const DeviceMemoryEvent& m : memory) {
        auto [it, added] = name_of.try_emplace({m.device_type, m.device_id});
        if (added) it->second = deviceName(m.device_type, m.device_id);
    }
    for (const auto& [device, name] : name_of)
        if (!name.empty()) all.devices.push_back(name);
    std::sort(all.devices.begin(), all.devices.end());
    all.devices.erase(std::unique(all.devices.begin(), all.devices.end()), all.devices.end());
    std::map<std::pair<int32_t, int32_t>, int32_t> device_of; // -1: not a device
    for (const auto& [device, name] : name_of)
        device_of[device] = name.empty()
                                ? -1
                                : static_cast<int32_t>(std::lower_bound(all.devices.begin(),
                                                                        all.devices.end(), name) -
                                                       all.devices.begin());
    std::vector<int32_t> device(memory.size());
    std::vector<uint32_t> order; // the records on a device, in time order
    order.reserve(memory.size());
    auto last = device_of.end();
    for (size_t i = 0; i < memory.size(); ++i) {
        const std::pair<int32_t, int32_t> key{memory[i].device_type, memory[i].device_id};
        if (last == device_of.end() || last->first != key) last = device_of.find(key);
        device[i] = last->second;
        if (device[i] >= 0) order.push_back(static_cast<uint32_t>(i));
    }
    // As the plugin sorts them (Kineto writes some late).
    auto earlier = [&](uint32_t a, uint32_t b) { return memory[a].t_ns < memory[b].t_ns; };
    if (!std::is_sorted(order.begin(), order.end(), earlier))
        std::stable_sort(order.begin(), order.end(), earlier);
    all.records.reserve(order.size());
    lanes.reserve(order.size());
    for (uint32_t i : order) {
        const DeviceMemoryEvent& m = memory[i];
        MemoryRecord r;
        r.t_ns = m.t_ns;
        r.device = device[i];
        r.addr = m.addr;
        r.bytes = m.bytes;
        r.allocated = m.total_allocated;
        r.reserved = m.total_reserved;
        all.records.push_back(r);
        lanes.push_back(m.lane);
    }
    return all;
}

// Trainscope's own samples name their innermost event; samples read back
// from a file do not, and then the only thread with operators (if there is
// just one) is the one that allocated.
MemoryRecords ownRecords(const Trace& trace, const DeviceOpTree& tree,
                         std::vector<int32_t>& lanes) {
    MemoryRecords all;
    all.own_samples = true;
    all.devices = {"CPU"};
    const int32_t only_lane = tree.roots.size() == 1 ? tree.nodes[tree.roots[0]].lane : -1;
    all.records.reserve(trace.memory.size());
    lanes.reserve(trace.memory.size());
    for (const MemorySample& s : trace.memory) {
        MemoryRecord r;
        r.t_ns = s.t_ns;
        r.device = 0;
        r.bytes = s.delta_bytes;
        r.allocated = s.live_bytes;
        r.event = s.event;
        all.records.push_back(r);
        lanes.push_back(s.event >= 0 ? trace.events.core(size_t(s.event)).lane : only_lane);
    }
    return all;
}

} // namespace

MemoryRecords collectMemoryRecords(const Trace& trace, const DeviceOpTree& tree) {
    std::vector<int32_t> lanes;
    MemoryRecords all =
        trace.kineto.memory.empty() ? ownRecords(trace, tree, lanes) : kinetoRecords(trace, lanes);
    attribute(trace, tree, lanes, all);
    all.parent = parentsOf(tree);
    for (MemoryRecord& r : all.records)
        if (r.event < 0 && r.node >= 0) r.event = tree.nodes[r.node].event;
    return all;
}

std::string memoryOpLabel(const Trace& trace, const DeviceOpTree& tree, const MemoryRecords& all,
                          const MemoryRecord& record) {
    if (record.event < 0) return "<unknown>";
    const std::string& name = trace.nameOf(trace.events[record.event]);
    if (name.rfind("aten::empty", 0) != 0) return name;
    if (record.node >= 0 && all.parent[record.node] >= 0)
        return tree.nameOf(trace, tree.nodes[all.parent[record.node]]) + " (" + name + ")";
    const int32_t up = trace.events[record.event].parent;
    if (record.node < 0 && up >= 0) return trace.nameOf(trace.events[up]) + " (" + name + ")";
    return name;
}

} // namespace ts
