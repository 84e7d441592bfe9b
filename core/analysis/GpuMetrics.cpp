#include "analysis/GpuMetrics.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "analysis/NameFlags.h"
#include "analysis/RangeSet.h"

namespace ts {

void visitSmEfficiencyPieces(std::vector<SmEfficiencyPiece> kernels,
                             const std::function<void(const SmEfficiencyPiece&)>& visit) {
    // 24 bytes, two per kernel: a 1 GB GPU trace has a million kernels, so
    // the points are sorted in place (std::sort on the full key, which orders
    // them exactly as a stable sort of the kernels' points would) and the
    // kernels are let go first.
    struct Point {
        int64_t t;
        double v;
        uint32_t order; // the point's place in kernel order: ties keep it
        bool start;
    };
    std::vector<Point> points;
    points.reserve(2 * kernels.size());
    for (const SmEfficiencyPiece& k : kernels) {
        points.push_back({k.start, k.value, uint32_t(points.size()), true});
        points.push_back({k.end, k.value, uint32_t(points.size()), false});
    }
    std::vector<SmEfficiencyPiece>().swap(kernels);
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
        if (a.t != b.t) return a.t < b.t;
        if (a.start != b.start) return a.start;
        return a.order < b.order;
    });
    if (points.empty()) return;
    // Accumulated in this order, as the plugin does, so the sums round alike.
    double acc = points[0].v;
    int64_t last = points[0].t;
    for (size_t i = 1; i < points.size(); ++i) {
        const Point& p = points[i];
        if (p.t > last && acc > 0) visit({last, p.t, std::min(acc, 1.0)});
        last = p.t;
        acc += p.start ? p.v : -p.v;
    }
}

std::vector<SmEfficiencyPiece> smEfficiencyPieces(std::vector<SmEfficiencyPiece> kernels) {
    std::vector<SmEfficiencyPiece> out;
    visitSmEfficiencyPieces(std::move(kernels),
                            [&out](const SmEfficiencyPiece& p) { out.push_back(p); });
    return out;
}

namespace {

struct PerGpu {
    RangeList busy;
    std::vector<SmEfficiencyPiece> blocks;
    double occupancy_weighted = 0;
    int64_t occupancy_ns = 0;
    int64_t op_kernel_ns = 0, op_tc_ns = 0;
};

int64_t clipped(int64_t start, int64_t end, int64_t s, int64_t e) {
    return std::max<int64_t>(0, std::min(end, e) - std::max(start, s));
}

} // namespace

GpuMetrics computeGpuMetrics(const Trace& trace, const KinetoEvents& events,
                             const LaunchLinks& links, const DeviceOpTree& tree,
                             const GpuOverview& overview, bool plugin_compatible) {
    GpuMetrics m;
    const int64_t S = overview.steps.empty() ? 0 : overview.steps.front().start_ns;
    const int64_t E = overview.steps.empty() ? 0 : overview.steps.back().end_ns;
    std::map<int32_t, PerGpu> gpus;
    const NameFlags names(trace.names, plugin_compatible);
    int64_t all_ns = 0, tc_ns = 0;
    // A trace's kernels usually all run on one GPU: its lists are sized for
    // all of them at once (a million kernels grown by doubling held half as
    // much again while copying, at the peak of opening a 1 GB GPU trace).
    size_t kernels = 0;
    for (const KinetoEvent& e : events.events)
        kernels += e.type == PluginType::Kernel ? 1 : 0;
    for (const KinetoEvent& e : events.events) {
        if (e.type != PluginType::Kernel) continue;
        const bool tc = names.tensorCoreKernel(trace.events.core(size_t(e.event)).name);
        all_ns += e.end - e.start;
        if (tc) tc_ns += e.end - e.start;
        const std::optional<DeviceLaunch> launch = trace.launchOf(e.event);
        if (!launch || launch->device < 0 || launch->device >= 64) continue;
        const bool first = gpus.empty();
        PerGpu& g = gpus[launch->device];
        if (first) {
            g.busy.reserve(kernels);
            g.blocks.reserve(kernels);
        }
        g.busy.emplace_back(e.start, e.end);
        if (launch->blocks_per_sm > 0) g.blocks.push_back({e.start, e.end, launch->blocks_per_sm});
        if (launch->occupancy >= 0) {
            const int64_t ns = clipped(e.start, e.end, S, E);
            g.occupancy_weighted +=
                static_cast<double>(launch->occupancy) * static_cast<double>(ns);
            g.occupancy_ns += ns;
        }
    }
    if (overview.has_kernel)
        m.tc_used_ratio =
            all_ns > 0 ? static_cast<double>(tc_ns) / static_cast<double>(all_ns) : 0.0;

    // Kernels of real operators' own runtime calls: the Tensor-Core ratios.
    bool op_kernels = false;
    std::vector<int64_t> own_kernel_ns(tree.nodes.size(), 0);
    visitOwnedDeviceWork(tree, links, [&](int32_t node, int32_t position) {
        const KinetoEvent& d = events.events[position];
        if (d.type != PluginType::Kernel) return;
        own_kernel_ns[node] += d.end - d.start;
        if (!tree.nodes[node].real_operator) return;
        op_kernels = true;
        const std::optional<DeviceLaunch> launch = trace.launchOf(d.event);
        if (!launch || !gpus.count(launch->device)) return;
        PerGpu& g = gpus[launch->device];
        g.op_kernel_ns += d.end - d.start;
        if (names.tensorCoreKernel(trace.events.core(size_t(d.event)).name))
            g.op_tc_ns += d.end - d.start;
    });
    // The innermost eligible ops ("bottom" nodes) against all real ops.
    std::vector<char> eligible_below(tree.nodes.size(), 0);
    int64_t bottom_ns = 0, op_ns = 0;
    tree.visitPostOrder([&](int32_t n) {
        const OpNode& node = tree.nodes[n];
        bool below = false;
        for (int32_t c : tree.children(n))
            below = below || eligible_below[c] || tree.nodes[c].tc_eligible;
        eligible_below[n] = below;
        if (node.tc_eligible && !below) bottom_ns += own_kernel_ns[n];
        if (node.real_operator) op_ns += own_kernel_ns[n];
    });
    m.tc_eligible_ops_kernel_ratio =
        op_ns > 0 ? static_cast<double>(bottom_ns) / static_cast<double>(op_ns) : 0.0;

    for (auto& [id, g] : gpus) {
        GpuDeviceSummary s;
        s.id = id;
        if (id >= 0 && static_cast<size_t>(id) < trace.kineto.devices.size()) {
            const DeviceProperties& p = trace.kineto.devices[id];
            s.has_properties = true;
            s.name = p.name;
            s.memory_bytes = p.total_global_mem;
            s.compute_major = p.compute_major;
            s.compute_minor = p.compute_minor;
        }
        const double span = static_cast<double>(E - S);
        if (span > 0) {
            s.utilization =
                static_cast<double>(lengthWithin(mergeRanges(std::move(g.busy)), S, E)) / span;
            double weighted = 0;
            bool any = false;
            visitSmEfficiencyPieces(std::move(g.blocks), [&](const SmEfficiencyPiece& p) {
                const int64_t ns = clipped(p.start, p.end, S, E);
                if (ns <= 0) return;
                any = true;
                weighted += p.value * static_cast<double>(ns);
            });
            if (any) s.sm_efficiency = weighted / span;
        }
        if (g.occupancy_ns > 0)
            s.occupancy = g.occupancy_weighted / static_cast<double>(g.occupancy_ns);
        if (op_kernels)
            s.tensor_core_ratio = g.op_kernel_ns > 0 ? static_cast<double>(g.op_tc_ns) /
                                                           static_cast<double>(g.op_kernel_ns)
                                                     : 0.0;
        m.gpus.push_back(std::move(s));
    }
    return m;
}

} // namespace ts
