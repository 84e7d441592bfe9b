#include "analysis/DeviceOpStats.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace ts {

DeviceOpTable computeDeviceOpTable(const Trace& trace, const DeviceOpTree& tree,
                                   DeviceOpGrouping grouping, bool by_device) {
    const bool shapes = grouping == DeviceOpGrouping::NameAndShapes ||
                        grouping == DeviceOpGrouping::NameShapesAndStack;
    const bool stacks = grouping == DeviceOpGrouping::NameAndStack ||
                        grouping == DeviceOpGrouping::NameShapesAndStack;
    DeviceOpTable table;
    table.by_device = by_device;
    std::unordered_map<std::string, size_t> rows;
    std::unordered_set<std::string> with_stack; // name (+ shapes) keys with a call stack
    tree.visitPostOrder([&](int32_t n) {
        const OpNode& node = tree.nodes[n];
        if (!node.real_operator) return;
        const TraceEvent& e = trace.events[node.event];
        const std::string& name = trace.nameOf(e);
        std::string shape = shapes ? trace.shapesOf(e) : std::string();
        if (shapes && shape.empty()) shape = "[]";
        const std::string& stack = trace.callStackOf(node.event);
        const std::string base = name + '\x1f' + shape;
        if (!stack.empty()) with_stack.insert(base);
        const std::string key = stacks ? base + '\x1f' + stack : base;
        auto [it, added] = rows.emplace(key, table.rows.size());
        if (added) {
            DeviceOpRow row;
            row.name = name;
            row.shapes = shape;
            if (stacks) row.call_stack = stack;
            row.tc_eligible = node.tc_eligible;
            table.rows.push_back(row);
        }
        DeviceOpRow& row = table.rows[it->second];
        row.calls++;
        row.host_total_ns += node.end - node.start;
        row.host_self_ns += node.self_host;
        row.device_total_ns += node.device_total;
        row.device_self_ns += node.device_self;
        row.tc_total_ns += node.tc_total;
        row.tc_self_ns += node.tc_self;
    });
    for (DeviceOpRow& row : table.rows)
        row.has_call_stack = with_stack.count(row.name + '\x1f' + row.shapes) != 0;
    std::stable_sort(table.rows.begin(), table.rows.end(),
                     [by_device](const DeviceOpRow& a, const DeviceOpRow& b) {
                         return by_device ? a.device_self_ns > b.device_self_ns
                                          : a.host_self_ns > b.host_self_ns;
                     });
    return table;
}

} // namespace ts
