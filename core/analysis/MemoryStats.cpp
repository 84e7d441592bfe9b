#include "analysis/MemoryStats.h"

#include <map>

namespace ts {

namespace {

struct Metrics {
    int64_t increase = 0, alloc_size = 0, alloc_count = 0;

    void add(const Metrics& o) {
        increase += o.increase;
        alloc_size += o.alloc_size;
        alloc_count += o.alloc_count;
    }
    void addRecord(int64_t bytes) {
        increase += bytes;
        if (bytes > 0) alloc_size += bytes, ++alloc_count;
    }
    bool zero() const { return increase == 0 && alloc_size == 0 && alloc_count == 0; }
};

struct ByName {
    int64_t calls = 0;
    Metrics self, total;
};

class StatsWalk {
public:
    StatsWalk(const Trace& trace, const DeviceOpTree& tree, const MemoryRecords& all,
              int32_t device, const MemoryTimeRange& range)
        : trace_(trace), tree_(tree), all_(all), range_(range), self_(tree.nodes.size()) {
        for (const MemoryRecord& r : all.records)
            if (r.node >= 0 && r.device == device && range.contains(r.t_ns))
                self_[r.node].addRecord(r.bytes);
    }

    std::map<std::string, ByName> run() {
        for (int32_t root : tree_.roots)
            for (int32_t c : tree_.children(root))
                visit(c);
        return std::move(by_name_);
    }

private:
    // The plugin's walk: an op in the range is a call even when no record
    // reached it, but the subtree of an unreached node is not walked (so its
    // nested calls are not counted). Returns the node's total metrics.
    Metrics visit(int32_t n) {
        const OpNode& node = tree_.nodes[n];
        if (!range_.touches(tree_.start(trace_, node), tree_.end(trace_, node))) return {};
        const std::string* name = node.real_operator ? &tree_.nameOf(trace_, node) : nullptr;
        if (name) by_name_[*name].calls++;
        if (!all_.reached[n]) return {};
        Metrics total = self_[n]; // zero unless a real operator
        for (int32_t c : tree_.children(n))
            total.add(visit(c));
        if (name) {
            ByName& row = by_name_[*name];
            row.self.add(self_[n]);
            row.total.add(total);
        }
        return total;
    }

    const Trace& trace_;
    const DeviceOpTree& tree_;
    const MemoryRecords& all_;
    const MemoryTimeRange& range_;
    std::vector<Metrics> self_;
    std::map<std::string, ByName> by_name_;
};

} // namespace

std::vector<MemoryOpRow> memoryOpStats(const Trace& trace, const DeviceOpTree& tree,
                                       const MemoryRecords& all, int32_t device,
                                       const MemoryTimeRange& range) {
    std::vector<MemoryOpRow> rows;
    if (all.reached.size() != tree.nodes.size()) return rows;
    for (const auto& [name, v] : StatsWalk(trace, tree, all, device, range).run()) {
        if (v.self.zero() && v.total.zero()) continue; // the plugin omits all-zero rows
        MemoryOpRow row;
        row.name = name;
        row.calls = v.calls;
        row.size_increase = v.total.increase;
        row.self_size_increase = v.self.increase;
        row.alloc_count = v.total.alloc_count;
        row.self_alloc_count = v.self.alloc_count;
        row.alloc_size = v.total.alloc_size;
        row.self_alloc_size = v.self.alloc_size;
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace ts
