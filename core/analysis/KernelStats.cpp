#include "analysis/KernelStats.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "analysis/TensorCores.h"

namespace ts {

namespace {

std::string dimsText(const std::array<int32_t, 3>& d) {
    if (d[0] < 0) return "None";
    return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) +
           "]";
}

std::string countText(int32_t v) {
    return v > 0 ? std::to_string(v) : "0";
}

// Running sums of a row; the weighted means come from them at the end.
struct Accumulator {
    double blocks = 0, occupancy = 0;
};

void add(KernelRow& row, Accumulator& acc, const KinetoEvent& e, const DeviceLaunch* launch) {
    const int64_t dur = e.end - e.start;
    row.min_ns = row.calls == 0 ? dur : std::min(row.min_ns, dur);
    row.max_ns = row.calls == 0 ? dur : std::max(row.max_ns, dur);
    row.calls++;
    row.total_ns += dur;
    if (launch && !std::isnan(launch->blocks_per_sm))
        acc.blocks += static_cast<double>(launch->blocks_per_sm) * static_cast<double>(dur);
    if (launch && !std::isnan(launch->occupancy))
        acc.occupancy += static_cast<double>(launch->occupancy) * static_cast<double>(dur);
}

void finish(KernelRow& row, const Accumulator& acc) {
    if (row.total_ns <= 0) return;
    row.blocks_per_sm = acc.blocks / static_cast<double>(row.total_ns);
    row.occupancy = acc.occupancy / static_cast<double>(row.total_ns);
}

template <typename Row> void sortByTotal(std::vector<Row>& rows) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.total_ns > b.total_ns; });
}

} // namespace

KernelTables computeKernelTables(const Trace& trace, const KinetoEvents& events,
                                 const LaunchLinks& links, const DeviceOpTree& tree,
                                 bool plugin_compatible, const TimeWindow& window) {
    KernelTables t;
    std::unordered_map<std::string, size_t> by_name;
    std::vector<Accumulator> name_acc;
    const auto in_window = [&window](const KinetoEvent& e) { return window.contains(e.start); };
    for (const KinetoEvent& e : events.events) {
        if (e.type != PluginType::Kernel || !in_window(e)) continue;
        const std::string& name = trace.nameOf(trace.events[e.event]);
        const std::optional<DeviceLaunch> launch = trace.launchOf(e.event);
        if (launch && launch->device >= 0) {
            t.has_blocks_per_sm = t.has_blocks_per_sm || launch->blocks_per_sm > 0;
            t.has_occupancy = t.has_occupancy || launch->occupancy >= 0;
        }
        auto [it, added] = by_name.emplace(name, t.by_name.size());
        if (added) {
            KernelRow row;
            row.name = name;
            row.tensor_cores = isTensorCoreKernel(name, plugin_compatible);
            t.by_name.push_back(row);
            name_acc.emplace_back();
        }
        add(t.by_name[it->second], name_acc[it->second], e, launch ? &*launch : nullptr);
    }
    for (size_t i = 0; i < t.by_name.size(); ++i)
        finish(t.by_name[i], name_acc[i]);
    // Ties in total keep the name order (the plugin's pandas sort is by name first).
    std::sort(t.by_name.begin(), t.by_name.end(), [](const KernelRow& a, const KernelRow& b) {
        if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
        return a.name < b.name;
    });

    std::unordered_map<std::string, size_t> by_op;
    std::vector<Accumulator> op_acc;
    visitOwnedDeviceWork(tree, links, [&](int32_t node, int32_t position) {
        const KinetoEvent& e = events.events[position];
        if (e.type != PluginType::Kernel || !in_window(e)) return;
        const OpNode& owner = tree.nodes[node];
        const std::string& name = trace.nameOf(trace.events[e.event]);
        const std::string& op = tree.nameOf(trace, owner);
        const std::optional<DeviceLaunch> launch = trace.launchOf(e.event);
        const DeviceLaunch none;
        const DeviceLaunch& l = launch ? *launch : none;
        const std::string grid = dimsText(l.grid), block = dimsText(l.block);
        const std::string regs = countText(l.registers), smem = countText(l.shared_memory);
        const std::string key =
            name + "\x1f" + op + "\x1f" + grid + "\x1f" + block + "\x1f" + regs + "\x1f" + smem;
        auto [it, added] = by_op.emplace(key, t.by_op.size());
        if (added) {
            KernelOpRow row;
            row.name = name;
            row.tensor_cores = isTensorCoreKernel(name, plugin_compatible);
            row.op_name = op;
            row.grid = grid;
            row.block = block;
            row.registers = regs;
            row.shared_memory = smem;
            // The owner's eligibility by name: the plugin records it before
            // the owner inherits eligibility from its children.
            row.op_tc_eligible = owner.tc_eligible_by_name;
            t.by_op.push_back(row);
            op_acc.emplace_back();
        }
        add(t.by_op[it->second], op_acc[it->second], e, launch ? &*launch : nullptr);
    });
    for (size_t i = 0; i < t.by_op.size(); ++i)
        finish(t.by_op[i], op_acc[i]);
    sortByTotal(t.by_op);
    return t;
}

} // namespace ts
