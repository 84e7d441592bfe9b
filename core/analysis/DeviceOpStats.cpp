#include "analysis/DeviceOpStats.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "util/Hash64.h"

namespace ts {

namespace {

// A row's key by interned indices: a trace has millions of ops and a few
// thousand distinct keys, so no strings are built per op. Names and strings
// are interned, so equal indices are equal texts; -1 stands for no text and
// for the empty one alike (and, for shapes, for "[]", which they show).
struct RowKey {
    uint32_t name = 0;
    int32_t shapes = -1, stack = -1;
    bool operator==(const RowKey& o) const {
        return name == o.name && shapes == o.shapes && stack == o.stack;
    }
};

struct RowKeyHash {
    size_t operator()(const RowKey& k) const {
        Hash64 h;
        h.addValue(k.name), h.addValue(k.shapes), h.addValue(k.stack);
        return static_cast<size_t>(h.digest());
    }
};

int32_t textIndex(const Trace& trace, int32_t index) {
    return trace.stringAt(index).empty() ? -1 : index;
}

int32_t shapesIndex(const Trace& trace, int32_t index) {
    const std::string& text = trace.stringAt(index);
    return text.empty() || text == "[]" ? -1 : index;
}

} // namespace

DeviceOpTable computeDeviceOpTable(const Trace& trace, const DeviceOpTree& tree,
                                   DeviceOpGrouping grouping, bool by_device,
                                   const TimeWindow& window) {
    const bool shapes = grouping == DeviceOpGrouping::NameAndShapes ||
                        grouping == DeviceOpGrouping::NameShapesAndStack;
    const bool stacks = grouping == DeviceOpGrouping::NameAndStack ||
                        grouping == DeviceOpGrouping::NameShapesAndStack;
    DeviceOpTable table;
    table.by_device = by_device;
    std::unordered_map<RowKey, size_t, RowKeyHash> rows;
    std::unordered_set<RowKey, RowKeyHash> with_stack; // name (+ shapes) keys with a call stack
    std::vector<RowKey> base_of_row;                   // each row's key without its stack
    tree.visitPostOrder([&](int32_t n) {
        const OpNode& node = tree.nodes[n];
        if (!node.real_operator) return;
        if (!window.all() && !window.contains(tree.start(trace, node))) return;
        const auto event = size_t(node.event);
        RowKey key;
        key.name = trace.events.core(event).name;
        key.shapes = shapes ? shapesIndex(trace, trace.events.shapes(event)) : -1;
        const int32_t stack = textIndex(trace, trace.events.callStack(event));
        if (stack >= 0) with_stack.insert(key);
        const RowKey base = key;
        if (stacks) key.stack = stack;
        auto [it, added] = rows.try_emplace(key, table.rows.size());
        if (added) {
            DeviceOpRow row;
            row.name = trace.names[key.name];
            if (shapes) row.shapes = key.shapes >= 0 ? trace.stringAt(key.shapes) : "[]";
            if (stacks) row.call_stack = trace.stringAt(stack);
            row.tc_eligible = node.tc_eligible;
            table.rows.push_back(row);
            base_of_row.push_back(base);
        }
        DeviceOpRow& row = table.rows[it->second];
        row.calls++;
        row.host_total_ns += tree.end(trace, node) - tree.start(trace, node);
        row.host_self_ns += node.self_host;
        row.device_total_ns += node.device_total;
        row.device_self_ns += node.device_self;
        row.tc_total_ns += node.tc_total;
        row.tc_self_ns += node.tc_self;
    });
    for (size_t r = 0; r < table.rows.size(); ++r)
        table.rows[r].has_call_stack = with_stack.count(base_of_row[r]) != 0;
    std::stable_sort(table.rows.begin(), table.rows.end(),
                     [by_device](const DeviceOpRow& a, const DeviceOpRow& b) {
                         return by_device ? a.device_self_ns > b.device_self_ns
                                          : a.host_self_ns > b.host_self_ns;
                     });
    return table;
}

} // namespace ts
