#include "analysis/TraceDiff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "analysis/GpuTraceAnalysis.h"
#include "analysis/OpStats.h"
#include "analysis/StepBreakdown.h"

namespace ts {

namespace {

constexpr double kNsPerMs = 1e6;

struct Totals {
    int64_t calls = 0;
    int64_t device_ns = 0, host_ns = 0;
};

// What one trace contributes to the diff, before the two are put side by side.
struct SideData {
    TraceDiffSide info;
    std::map<std::string, Totals> ops, kernels;
    std::vector<DiffCategory> categories; // a_ns holds this side's mean per step
    DiffHostTree tree;
};

struct StepsWindow {
    TimeWindow host, device;
};

// Steps found from the optimizer's ranges (trace/OptimizerSteps.h) leave out
// the iterations the trace cut at its start and end, which would add their
// calls to no step: the totals of such a trace count the calls that start
// in its steps (the kernels in the steps as the Overview extends them to
// their device work). Other traces: everything (both windows all()).
StepsWindow derivedStepsWindow(const Trace& trace, const GpuOverview& overview) {
    StepsWindow w;
    if (trace.steps_from.empty() || trace.steps.empty()) return w;
    w.host.start_ns = w.device.start_ns = trace.steps.front().start_ns;
    w.host.end_ns = w.device.end_ns = trace.steps.back().end_ns;
    if (!overview.steps.empty())
        w.device.end_ns = std::max(w.device.end_ns, overview.steps.back().end_ns);
    return w;
}

SideData kinetoSide(const Trace& trace, const GpuAnalysisOptions& options) {
    SideData side;
    const GpuTraceAnalysis analysis = analyzeGpuTrace(trace, options);
    side.info.kineto = true;
    side.info.has_steps = !trace.steps.empty();
    // The operator and kernel totals cover every step of the trace, so they
    // divide by all of them; the step time is the Overview's mean, whose
    // steps leave out a trailing step without its device work (as the
    // plugin does), which would count a call per step as 1.5 per step.
    side.info.steps = side.info.has_steps ? trace.steps.size() : 1;
    side.info.step_ns = analysis.overview.average_ns[static_cast<size_t>(GpuRole::Total)];
    side.info.has_device_time =
        analysis.overview.has_kernel || analysis.overview.has_memcpy_or_memset;
    const StepsWindow window = derivedStepsWindow(trace, analysis.overview);
    for (const DeviceOpRow& r : computeDeviceOpTable(trace, analysis.tree, DeviceOpGrouping::Name,
                                                     side.info.has_device_time, window.host)
                                    .rows)
        side.ops[r.name] = {r.calls, r.device_self_ns, r.host_self_ns};
    const KernelTables in_window =
        window.host.all()
            ? KernelTables{}
            : computeKernelTables(trace, analysis.events, analysis.links, analysis.tree,
                                  options.plugin_compatible, window.device);
    const KernelTables& kernels = window.host.all() ? analysis.kernels : in_window;
    for (const KernelRow& r : kernels.by_name)
        side.kernels[r.name] = {r.calls, r.total_ns, 0};
    for (size_t role = 0; role < kGpuRoleCount; ++role)
        side.categories.push_back(
            {toString(static_cast<GpuRole>(role)), analysis.overview.average_ns[role], 0});
    side.tree = diffTreeOfKineto(trace, analysis);
    return side;
}

SideData ownSide(const Trace& trace) {
    SideData side;
    side.info.has_steps = !trace.steps.empty();
    side.info.steps = side.info.has_steps ? trace.steps.size() : 1;
    const OpTable table = computeOpStats(trace);
    side.info.has_device_time = table.total_self_device_ns > 0;
    for (const OpStat& r : table.rows)
        side.ops[r.name] = {r.calls, r.self_device_ns, r.self_cpu_ns};
    for (const TraceEvent& e : trace.events)
        if (e.kind == EventKind::Kernel && e.lane >= 0 && trace.lanes[e.lane].device) {
            Totals& k = side.kernels[trace.nameOf(e)];
            ++k.calls;
            k.device_ns += e.dur_ns;
        }
    const StepBreakdown breakdown = computeStepBreakdown(trace);
    const StepPhases& m = breakdown.mean;
    side.info.step_ns = m.step_ms * kNsPerMs;
    const std::pair<const char*, double> phases[] = {{"Data", m.phases.data_ms},
                                                     {"Copy", m.phases.copy_ms},
                                                     {"Forward", m.phases.forward_ms},
                                                     {"Backward", m.phases.backward_ms},
                                                     {"Optimizer", m.phases.optimizer_ms},
                                                     {"Other", m.phases.other_ms},
                                                     {"Total", m.step_ms}};
    for (const auto& [name, ms] : phases)
        side.categories.push_back({name, ms * kNsPerMs, 0});
    side.tree = diffTreeOfOwnTrace(trace);
    return side;
}

SideData sideOf(const Trace& trace, const GpuAnalysisOptions& options, const std::string& label) {
    SideData side = !trace.events.hasCategories() ? ownSide(trace) : kinetoSide(trace, options);
    side.info.label = label;
    return side;
}

bool differs(double x, double y) {
    return std::fabs(x - y) > 1e-9 * std::max(std::fabs(x), std::fabs(y));
}

DiffStatus statusOf(const DiffRow& row, double threshold_ns) {
    if (row.calls_a == 0 && row.calls_b > 0) return DiffStatus::Added;
    if (row.calls_b == 0 && row.calls_a > 0) return DiffStatus::Removed;
    if (differs(row.calls_a, row.calls_b))
        return row.calls_b > row.calls_a ? DiffStatus::MoreFrequent : DiffStatus::LessFrequent;
    if (std::fabs(row.impact_ns) < threshold_ns) return DiffStatus::Unchanged;
    return row.impact_ns > 0 ? DiffStatus::Slower : DiffStatus::Faster;
}

void sortByImpact(std::vector<DiffRow>& rows) {
    std::sort(rows.begin(), rows.end(), [](const DiffRow& x, const DiffRow& y) {
        const double ix = std::fabs(x.impact_ns), iy = std::fabs(y.impact_ns);
        if (ix != iy) return ix > iy;
        return x.name < y.name;
    });
}

// Rows for the union of names; `by_device` picks the time the impact is of.
std::vector<DiffRow> diffRows(const std::map<std::string, Totals>& a, double steps_a,
                              const std::map<std::string, Totals>& b, double steps_b,
                              bool by_device, double threshold_ns) {
    std::map<std::string, DiffRow> merged;
    for (const auto& [name, t] : a) {
        DiffRow& r = merged[name];
        r.name = name;
        r.calls_a = double(t.calls) / steps_a;
        r.device_a_ns = double(t.device_ns) / steps_a;
        r.host_a_ns = double(t.host_ns) / steps_a;
    }
    for (const auto& [name, t] : b) {
        DiffRow& r = merged[name];
        r.name = name;
        r.calls_b = double(t.calls) / steps_b;
        r.device_b_ns = double(t.device_ns) / steps_b;
        r.host_b_ns = double(t.host_ns) / steps_b;
    }
    std::vector<DiffRow> rows;
    for (auto& [name, r] : merged) {
        r.impact_ns = r.timeB(by_device) - r.timeA(by_device);
        r.status = statusOf(r, threshold_ns);
        rows.push_back(std::move(r));
    }
    sortByImpact(rows);
    return rows;
}

std::vector<DiffCategory> categoriesOf(const SideData& a, const SideData& b, bool comparable) {
    std::vector<DiffCategory> out;
    if (comparable) {
        for (size_t i = 0; i < a.categories.size(); ++i)
            out.push_back({a.categories[i].name, a.categories[i].a_ns, b.categories[i].a_ns});
        return out;
    }
    out.push_back({"Total", a.info.step_ns, b.info.step_ns});
    return out;
}

size_t medianStep(const DiffHostTree& tree) {
    std::vector<size_t> order(tree.steps.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        return tree.steps[x].end_ns - tree.steps[x].start_ns <
               tree.steps[y].end_ns - tree.steps[y].start_ns;
    });
    return order[(order.size() - 1) / 2];
}

size_t pickStep(const SideData& side, const std::optional<size_t>& wanted) {
    const DiffHostTree& tree = side.tree;
    if (!wanted) return medianStep(tree);
    if (!tree.has_steps)
        throw std::invalid_argument(side.info.label +
                                    ": the trace marks no steps (no ProfilerStep#N or step "
                                    "track), so no step can be chosen.");
    if (*wanted >= tree.steps.size())
        throw std::invalid_argument(side.info.label + ": step " + std::to_string(*wanted) +
                                    " is out of range; the trace has " +
                                    std::to_string(tree.steps.size()) + " steps (0 to " +
                                    std::to_string(tree.steps.size() - 1) + ").");
    return *wanted;
}

AlignedStep alignedStep(const DiffHostTree& tree, size_t index) {
    const DiffHostStep& s = tree.steps[index];
    AlignedStep out{index, s.label, s.start_ns, s.end_ns, {}};
    for (int32_t node : s.top) {
        const DiffHostNode& n = tree.nodes[node];
        out.ops.push_back({n.name, n.start_ns - s.start_ns, n.end_ns - s.start_ns, -1, false});
    }
    return out;
}

// Marks the ops of one side with their pair and whether they changed.
void markOps(AlignedStep& step, const DiffHostTree& tree, const std::vector<int32_t>& top,
             const std::vector<DiffSlicePair>& slices, const std::vector<AlignedPair>& pairs,
             const std::set<std::string>& changed, bool side_a) {
    for (size_t p = 0; p < slices.size(); ++p) {
        const size_t begin = side_a ? slices[p].a_begin : slices[p].b_begin;
        const size_t end = side_a ? slices[p].a_end : slices[p].b_end;
        for (size_t k = begin; k < end; ++k) {
            AlignedOp& op = step.ops[k];
            op.pair = static_cast<int32_t>(p);
            op.changed =
                tree.nodes[top[k]].real_operator ? changed.count(op.name) > 0 : pairs[p].changed;
        }
    }
}

StepAlignment alignSteps(const SideData& a, const SideData& b, const TraceDiff& diff,
                         const TraceDiffOptions& options) {
    StepAlignment out;
    if (a.tree.steps.empty() || b.tree.steps.empty()) return out;
    const size_t ia = pickStep(a, options.step_a), ib = pickStep(b, options.step_b);
    const DiffHostStep& sa = a.tree.steps[ia];
    const DiffHostStep& sb = b.tree.steps[ib];
    out.a = alignedStep(a.tree, ia);
    out.b = alignedStep(b.tree, ib);
    std::vector<DiffSlicePair> slices = pairTopLevel(a.tree, sa.top, b.tree, sb.top);
    if (slices.empty() && (!sa.top.empty() || !sb.top.empty()))
        slices.push_back({0, sa.top.size(), 0, sb.top.size(), false});
    for (const DiffSlicePair& s : slices) {
        const DiffNodeSide side_a =
            summarizeSide(a.tree, {sa.top.begin() + static_cast<std::ptrdiff_t>(s.a_begin),
                                   sa.top.begin() + static_cast<std::ptrdiff_t>(s.a_end)});
        const DiffNodeSide side_b =
            summarizeSide(b.tree, {sb.top.begin() + static_cast<std::ptrdiff_t>(s.b_begin),
                                   sb.top.begin() + static_cast<std::ptrdiff_t>(s.b_end)});
        AlignedPair p;
        p.name_a = side_a.name;
        p.name_b = side_b.name;
        p.matched = s.matched;
        p.has_a = !side_a.blank;
        p.has_b = !side_b.blank;
        if (p.has_a)
            p.a_start_ns = side_a.start_ns - sa.start_ns, p.a_end_ns = side_a.end_ns - sa.start_ns;
        if (p.has_b)
            p.b_start_ns = side_b.start_ns - sb.start_ns, p.b_end_ns = side_b.end_ns - sb.start_ns;
        p.delta_ns = side_b.total_duration_ns - side_a.total_duration_ns;
        p.changed = !p.has_a || !p.has_b || std::fabs(double(p.delta_ns)) >= diff.threshold_ns;
        out.pairs.push_back(std::move(p));
    }
    markOps(out.a, a.tree, sa.top, slices, out.pairs, diff.changed_operators, true);
    markOps(out.b, b.tree, sb.top, slices, out.pairs, diff.changed_operators, false);
    return out;
}

} // namespace

const char* toString(DiffStatus status) {
    switch (status) {
    case DiffStatus::Added:
        return "added";
    case DiffStatus::Removed:
        return "removed";
    case DiffStatus::MoreFrequent:
        return "more frequent";
    case DiffStatus::LessFrequent:
        return "less frequent";
    case DiffStatus::Slower:
        return "slower";
    case DiffStatus::Faster:
        return "faster";
    case DiffStatus::Unchanged:
        return "unchanged";
    }
    return "unchanged";
}

TraceDiff computeTraceDiff(const Trace& a, const Trace& b, const TraceDiffOptions& options) {
    const SideData side_a = sideOf(a, options.gpu, options.label_a);
    const SideData side_b = sideOf(b, options.gpu, options.label_b);
    TraceDiff diff;
    diff.a = side_a.info;
    diff.b = side_b.info;
    diff.per_step = diff.a.has_steps && diff.b.has_steps;
    if (!diff.per_step) diff.a.steps = diff.b.steps = 1;
    diff.by_device = diff.a.has_device_time && diff.b.has_device_time;
    diff.categories_comparable = diff.a.kineto == diff.b.kineto;
    diff.threshold_ns = std::max(double(options.min_delta_ns),
                                 options.step_share * std::max(diff.a.step_ns, diff.b.step_ns));
    diff.categories = categoriesOf(side_a, side_b, diff.categories_comparable);
    const double steps_a = double(diff.a.steps), steps_b = double(diff.b.steps);
    diff.operators =
        diffRows(side_a.ops, steps_a, side_b.ops, steps_b, diff.by_device, diff.threshold_ns);
    diff.kernels = diffRows(side_a.kernels, steps_a, side_b.kernels, steps_b, /*by_device=*/true,
                            diff.threshold_ns);
    for (const DiffRow& r : diff.operators)
        if (r.status != DiffStatus::Unchanged) diff.changed_operators.insert(r.name);
    diff.tree = compareTrees(side_a.tree, side_a.tree.top, side_b.tree, side_b.tree.top);
    diff.alignment = alignSteps(side_a, side_b, diff, options);
    return diff;
}

} // namespace ts
