#include "analysis/DiffHostTree.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace ts {

namespace {

bool startsWith(const std::string& text, const char* prefix) {
    return text.rfind(prefix, 0) == 0;
}

bool isPhaseName(const std::string& name) {
    std::string lower(name.size(), ' ');
    std::transform(name.begin(), name.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower == "data" || lower == "copy" || lower == "forward" || lower == "backward" ||
           lower == "optimizer";
}

DiffNodeKind kindOfKinetoNode(const OpNode& node, const std::string& name) {
    switch (node.kind) {
    case OpNodeKind::DataLoader:
        return DiffNodeKind::DataLoader;
    case OpNodeKind::Optimizer:
        return DiffNodeKind::Optimizer;
    case OpNodeKind::Step:
        return DiffNodeKind::ProfilerStep;
    case OpNodeKind::Root:
    case OpNodeKind::Operator:
        break;
    }
    if (node.type == PluginType::Python && startsWith(name, "nn.Module: "))
        return DiffNodeKind::Module;
    return DiffNodeKind::Operator;
}

DiffNodeKind kindOfOwnEvent(const TraceEvent& e, const std::string& name) {
    switch (e.kind) {
    case EventKind::DataLoader:
        return DiffNodeKind::DataLoader;
    case EventKind::ProfilerStep:
        return DiffNodeKind::ProfilerStep;
    case EventKind::Annotation:
        if (startsWith(name, "Optimizer.step")) return DiffNodeKind::Optimizer;
        return isPhaseName(name) ? DiffNodeKind::Phase : DiffNodeKind::Operator;
    case EventKind::Python:
        return startsWith(name, "nn.Module: ") ? DiffNodeKind::Module : DiffNodeKind::Operator;
    default:
        return DiffNodeKind::Operator;
    }
}

// The root whose children hold the ProfilerStep nodes, else the first.
int32_t mainRoot(const DeviceOpTree& tree) {
    for (int32_t root : tree.roots)
        for (int32_t child : tree.children(root))
            if (tree.nodes[child].kind == OpNodeKind::Step) return root;
    return tree.roots.empty() ? -1 : tree.roots.front();
}

// Copies the subtree under `node` (its children, recursively) into `out`;
// returns the index of the copy of `node`.
int32_t copyKineto(const Trace& trace, const DeviceOpTree& tree, int32_t node, DiffHostTree& out) {
    const OpNode& n = tree.nodes[node];
    DiffHostNode d;
    d.name = tree.nameOf(trace, n);
    d.kind = kindOfKinetoNode(n, d.name);
    d.start_ns = tree.start(trace, n);
    d.end_ns = tree.end(trace, n);
    d.self_host_ns = n.self_host;
    d.device_total_ns = n.device_total;
    d.device_self_ns = n.device_self;
    d.real_operator = n.real_operator;
    const auto index = static_cast<int32_t>(out.nodes.size());
    out.nodes.push_back(std::move(d));
    for (int32_t child : tree.children(node)) {
        const int32_t copied = copyKineto(trace, tree, child, out);
        out.nodes[index].children.push_back(copied);
    }
    return index;
}

// Steps found from the optimizer's ranges (trace/OptimizerSteps.h) have no
// node of their own: each holds the root's children that start in its host
// range, as a ProfilerStep node holds those under it.
void stepsByStart(const Trace& trace, const std::vector<int32_t>& root_children,
                  DiffHostTree& out) {
    for (DiffHostStep& s : out.steps) {
        const auto mark =
            std::find_if(trace.steps.begin(), trace.steps.end(),
                         [&](const StepMark& m) { return std::to_string(m.step) == s.label; });
        if (mark == trace.steps.end()) continue;
        s.start_ns = std::min(s.start_ns, mark->start_ns);
        s.end_ns = std::max(s.end_ns, mark->end_ns);
        for (int32_t child : root_children) {
            const int64_t start = out.nodes[child].start_ns;
            if (start >= mark->start_ns && start < mark->end_ns) s.top.push_back(child);
        }
        out.top.insert(out.top.end(), s.top.begin(), s.top.end());
    }
}

} // namespace

bool isMatchable(DiffNodeKind kind) {
    return kind != DiffNodeKind::Operator;
}

DiffHostTree diffTreeOfKineto(const Trace& trace, const GpuTraceAnalysis& analysis) {
    DiffHostTree out;
    out.has_steps = !trace.steps.empty();
    const int32_t root = mainRoot(analysis.tree);
    std::vector<int32_t> root_children;
    if (root >= 0)
        for (int32_t child : analysis.tree.children(root))
            root_children.push_back(copyKineto(trace, analysis.tree, child, out));
    bool any_step_node = false;
    for (const GpuStep& s : analysis.overview.steps) {
        DiffHostStep step{s.label, s.start_ns, s.end_ns, {}};
        const std::string name = "ProfilerStep#" + s.label;
        for (int32_t child : root_children)
            if (out.nodes[child].kind == DiffNodeKind::ProfilerStep &&
                out.nodes[child].name == name) {
                // The Overview may start a step after its ProfilerStep range
                // (at the end of the previous step's device work); the span
                // covers both so that no top-level node starts before it.
                const DiffHostNode& node = out.nodes[child];
                step.start_ns = std::min(step.start_ns, node.start_ns);
                step.end_ns = std::max(step.end_ns, node.end_ns);
                step.top = node.children;
                any_step_node = true;
            }
        out.top.insert(out.top.end(), step.top.begin(), step.top.end());
        out.steps.push_back(std::move(step));
    }
    if (!any_step_node && !trace.steps_from.empty()) {
        stepsByStart(trace, root_children, out);
    } else if (!any_step_node) {
        // The plugin's rule: without ProfilerStep nodes the root's children
        // are the list; the Overview's one step spans them.
        out.top = root_children;
        for (DiffHostStep& s : out.steps)
            s.top = root_children;
    }
    return out;
}

DiffHostTree diffTreeOfOwnTrace(const Trace& trace) {
    DiffHostTree out;
    out.has_steps = !trace.steps.empty();
    int32_t lane = -1;
    for (const TraceEvent& e : trace.events) {
        const bool host = e.lane >= 0 && static_cast<size_t>(e.lane) < trace.lanes.size() &&
                          !trace.lanes[e.lane].device;
        if (!host) continue;
        if (lane < 0) lane = e.lane;
        if (e.kind == EventKind::Annotation && isPhaseName(trace.nameOf(e))) {
            lane = e.lane;
            break;
        }
    }
    // Events of one lane are contiguous and sorted by (start, -dur), so a
    // parent always comes before its children.
    std::vector<int32_t> copy_of(trace.events.size(), -1);
    std::vector<int32_t> top_level;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const TraceEvent& e = trace.events[i];
        if (e.lane != lane) continue;
        DiffHostNode d;
        d.name = trace.nameOf(e);
        d.kind = kindOfOwnEvent(e, d.name);
        d.start_ns = e.start_ns;
        d.end_ns = e.end_ns();
        d.self_host_ns = e.dur_ns;
        d.device_total_ns = e.device_ns;
        d.device_self_ns = e.device_ns;
        d.real_operator = e.kind == EventKind::Operator || e.kind == EventKind::Backward;
        const auto index = static_cast<int32_t>(out.nodes.size());
        copy_of[i] = index;
        out.nodes.push_back(std::move(d));
        const int32_t parent = e.parent >= 0 ? copy_of[e.parent] : -1;
        if (parent < 0) {
            top_level.push_back(index);
            continue;
        }
        DiffHostNode& p = out.nodes[parent];
        p.children.push_back(index);
        p.self_host_ns -= e.dur_ns;
        p.device_self_ns -= e.device_ns;
    }
    for (DiffHostNode& n : out.nodes) {
        n.self_host_ns = std::max<int64_t>(0, n.self_host_ns);
        n.device_self_ns = std::max<int64_t>(0, n.device_self_ns);
    }
    std::vector<StepMark> marks = trace.steps;
    std::sort(marks.begin(), marks.end(),
              [](const StepMark& a, const StepMark& b) { return a.start_ns < b.start_ns; });
    if (marks.empty() && !top_level.empty()) {
        StepMark all{-1, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
        for (int32_t t : top_level) {
            all.start_ns = std::min(all.start_ns, out.nodes[t].start_ns);
            all.end_ns = std::max(all.end_ns, out.nodes[t].end_ns);
        }
        marks.push_back(all);
    }
    for (const StepMark& m : marks) {
        DiffHostStep step{m.step >= 0 ? std::to_string(m.step) : "0", m.start_ns, m.end_ns, {}};
        for (int32_t t : top_level)
            if (out.nodes[t].start_ns >= m.start_ns && out.nodes[t].start_ns < m.end_ns)
                step.top.push_back(t);
        out.top.insert(out.top.end(), step.top.begin(), step.top.end());
        out.steps.push_back(std::move(step));
    }
    return out;
}

} // namespace ts
