#include "analysis/CriticalPath.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "analysis/LaunchIndex.h"
#include "trace/KinetoNames.h"

namespace ts {
namespace {

CpWindow windowOf(const Trace& trace, int32_t event) {
    const TraceEvent e = trace.events[size_t(event)];
    return CpWindow{e.start_ns, e.end_ns(), event, trace.nameOf(e)};
}

// CPU events whose name `keep`s, by start: the test runs once per name,
// not once per event (a trace repeats a few thousand names).
template <typename Keep> std::vector<int32_t> cpuEvents(const Trace& trace, Keep keep) {
    std::vector<char> kept(trace.names.size());
    for (size_t n = 0; n < trace.names.size(); ++n)
        kept[n] = keep(trace.names[n]);
    std::vector<int32_t> found;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const EventCore& c = trace.events.core(i);
        if (kept[c.name] && !trace.lanes[c.lane].device) found.push_back(int32_t(i));
    }
    std::stable_sort(found.begin(), found.end(), [&](int32_t a, int32_t b) {
        return trace.events.core(size_t(a)).start_ns < trace.events.core(size_t(b)).start_ns;
    });
    return found;
}

std::vector<int32_t> stepEvents(const Trace& trace) {
    return cpuEvents(trace, [](const std::string& name) { return profilerStepNumber(name) >= 0; });
}

std::string stepList(const std::vector<int64_t>& steps) {
    if (steps.empty()) return "it has no ProfilerStep";
    if (steps.size() == 1) return "it has step " + std::to_string(steps[0]) + " only";
    return "it has steps " + std::to_string(steps.front()) + " to " + std::to_string(steps.back());
}

CpWindow wholeTrace(const Trace& trace) {
    CpWindow w{INT64_MAX, INT64_MIN, -1, "whole trace"};
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const EventCore& c = trace.events.core(i);
        w.start = std::min(w.start, c.start_ns);
        w.end = std::max(w.end, c.start_ns + c.dur_ns);
    }
    if (trace.events.empty()) w.start = w.end = 0;
    return w;
}

std::optional<CpWindow> stepWindow(const Trace& trace, int64_t step, std::string& error) {
    std::vector<int64_t> numbers;
    for (int32_t e : stepEvents(trace)) {
        const int64_t n = profilerStepNumber(trace.nameOf(trace.events[size_t(e)]));
        if (n == step || (step < 0 && numbers.empty())) return windowOf(trace, e);
        numbers.push_back(n);
    }
    for (const StepMark& m : trace.steps) // Trainscope's own traces
        if (m.step == step || step < 0)
            return CpWindow{m.start_ns, m.end_ns, -1, "step " + std::to_string(m.step)};
    if (step < 0) return wholeTrace(trace);
    for (const StepMark& m : trace.steps)
        numbers.push_back(m.step);
    std::sort(numbers.begin(), numbers.end());
    error = "step " + std::to_string(step) + " is not in the trace; " + stepList(numbers);
    return std::nullopt;
}

} // namespace

std::vector<CpWindow> stepWindows(const Trace& trace) {
    std::vector<CpWindow> out;
    for (int32_t e : stepEvents(trace))
        out.push_back(windowOf(trace, e));
    if (out.empty())
        for (const StepMark& m : trace.steps)
            out.push_back(CpWindow{m.start_ns, m.end_ns, -1, "step " + std::to_string(m.step)});
    return out;
}

std::optional<CpWindow> chooseWindow(const Trace& trace, const CpWindowChoice& choice,
                                     std::string& error) {
    if (choice.whole_trace) return wholeTrace(trace);
    if (choice.annotation.empty()) return stepWindow(trace, choice.step, error);
    const std::vector<int32_t> found = cpuEvents(trace, [&](const std::string& name) {
        return name.find(choice.annotation) != std::string::npos;
    });
    if (choice.instance >= 0 && size_t(choice.instance) < found.size())
        return windowOf(trace, found[size_t(choice.instance)]);
    error = "annotation '" + choice.annotation + "' " +
            (found.empty() ? std::string("matches no event on a CPU thread")
                           : "has " + std::to_string(found.size()) + " instance(s) (0 to " +
                                 std::to_string(found.size() - 1) + "), not " +
                                 std::to_string(choice.instance));
    return std::nullopt;
}

bool parseWhatIf(const std::string& text, WhatIfFactor& out, std::string& error) {
    const size_t colon = text.find(':'), equals = text.rfind('=');
    if (colon == std::string::npos || equals == std::string::npos || equals < colon) {
        error = "what-if '" + text +
                "' is not KIND:NAME=FACTOR (kernel:NAME=0.5, op:NAME=0.5, "
                "category:launch_overhead=0)";
        return false;
    }
    const std::string kind = text.substr(0, colon);
    out.name = text.substr(colon + 1, equals - colon - 1);
    try {
        size_t used = 0;
        out.factor = std::stod(text.substr(equals + 1), &used);
        if (used != text.size() - equals - 1 || out.factor < 0) throw std::invalid_argument("");
    } catch (const std::exception&) {
        error = "what-if '" + text + "': the factor must be a number >= 0 (0.5 = twice as fast)";
        return false;
    }
    if (kind == "kernel") {
        out.target = WhatIfFactor::Target::Kernel;
    } else if (kind == "op" || kind == "operator") {
        out.target = WhatIfFactor::Target::Operator;
    } else if (kind == "category") {
        out.target = WhatIfFactor::Target::Category;
        if (!boundFromString(out.name, out.category)) {
            error = "what-if '" + text + "': unknown category '" + out.name +
                    "' (cpu_bound, gpu_compute_bound, gpu_communication_bound, "
                    "gpu_kernel_launch_overhead, gpu_kernel_kernel_overhead, data_loading)";
            return false;
        }
    } else {
        error = "what-if '" + text + "': unknown kind '" + kind + "' (kernel, op, category)";
        return false;
    }
    if (out.name.empty()) {
        error = "what-if '" + text + "' names nothing";
        return false;
    }
    return true;
}

std::string describe(const WhatIfFactor& f) {
    static const char* kKinds[] = {"kernel", "op", "category"};
    char factor[32];
    std::snprintf(factor, sizeof factor, "%g", f.factor);
    const std::string name =
        f.target == WhatIfFactor::Target::Category ? toString(f.category) : f.name;
    return std::string(kKinds[int(f.target)]) + " " + name + " x" + factor;
}

CpPath longestPath(const CpGraph& graph, const std::vector<int64_t>* weights) {
    const size_t n = graph.nodes.size();
    CpPath path;
    if (n == 0) return path;
    std::vector<int32_t> position(n);
    for (size_t i = 0; i < graph.order.size(); ++i)
        position[size_t(graph.order[i])] = int32_t(i);
    // Edges by their source's place in the order: relaxing them in turn
    // sees every edge into a node before any edge out of it.
    std::vector<int32_t> first(n + 1, 0), by_source(graph.edges.size());
    for (const CpEdge& e : graph.edges)
        ++first[size_t(position[size_t(e.from)]) + 1];
    for (size_t i = 0; i < n; ++i)
        first[i + 1] += first[i];
    for (size_t i = 0; i < graph.edges.size(); ++i)
        by_source[size_t(first[size_t(position[size_t(graph.edges[i].from)])]++)] = int32_t(i);
    std::vector<int64_t> dist(n, 0);
    std::vector<int32_t> via(n, -1);
    for (int32_t i : by_source) {
        const CpEdge& e = graph.edges[size_t(i)];
        const int64_t w = weights ? (*weights)[size_t(i)] : e.weight;
        const int64_t reach = dist[size_t(e.from)] + w;
        if (via[size_t(e.to)] < 0 || reach > dist[size_t(e.to)]) {
            dist[size_t(e.to)] = reach;
            via[size_t(e.to)] = i;
        }
    }
    int32_t end = graph.order.front();
    for (int32_t v : graph.order)
        if (dist[size_t(v)] > dist[size_t(end)]) end = v;
    path.length_ns = dist[size_t(end)];
    for (int32_t v = end; via[size_t(v)] >= 0; v = graph.edges[size_t(via[size_t(v)])].from)
        path.edges.push_back(via[size_t(v)]);
    std::reverse(path.edges.begin(), path.edges.end());
    return path;
}

namespace {

std::vector<CpSegment> segmentsOf(const CpGraph& graph, const CpPath& path,
                                  const std::vector<int64_t>* weights) {
    std::vector<CpSegment> out;
    for (int32_t i : path.edges) {
        const CpEdge& e = graph.edges[size_t(i)];
        const int64_t w = weights ? (*weights)[size_t(i)] : e.weight;
        if (w <= 0 || e.bound == BoundBy::None) continue;
        const int32_t event =
            e.type == CpEdgeType::LaunchDelay ? graph.nodes[size_t(e.to)].event : e.event;
        if (!out.empty() && out.back().event == event && out.back().bound == e.bound &&
            out.back().type == e.type) {
            out.back().ns += w;
            continue;
        }
        out.push_back(CpSegment{event, e.type, e.bound, graph.nodes[size_t(e.from)].t, w});
    }
    return out;
}

void finishShares(std::vector<CpShare>& shares, int64_t path_ns, int64_t step_ns) {
    for (CpShare& s : shares) {
        s.pct = path_ns > 0 ? 100.0 * double(s.ns) / double(path_ns) : 0;
        s.step_pct = step_ns > 0 ? 100.0 * double(s.ns) / double(step_ns) : 0;
    }
    std::stable_sort(shares.begin(), shares.end(),
                     [](const CpShare& a, const CpShare& b) { return a.ns > b.ns; });
}

std::vector<CpShare> byBound(const std::vector<CpSegment>& segments, int64_t path_ns,
                             int64_t step_ns) {
    std::vector<CpShare> shares;
    for (int b = 1; b < kBoundKinds; ++b) {
        CpShare s;
        s.bound = BoundBy(b);
        s.name = toString(s.bound);
        for (const CpSegment& seg : segments)
            if (seg.bound == s.bound) s.ns += seg.ns;
        if (s.ns > 0) shares.push_back(s);
    }
    finishShares(shares, path_ns, step_ns);
    return shares;
}

// Operators (CPU) or kernels (device) on the path, by name.
std::vector<CpShare> byName(const Trace& trace, const std::vector<CpSegment>& segments,
                            bool kernels, int64_t path_ns, int64_t step_ns) {
    struct Acc {
        CpShare share;
        std::set<int32_t> events;
        std::map<int32_t, int64_t> per_event;
    };
    std::map<uint32_t, Acc> by;
    for (const CpSegment& seg : segments) {
        if (seg.event < 0 || seg.type != CpEdgeType::Operator) continue;
        const EventCore& c = trace.events.core(size_t(seg.event));
        if (trace.lanes[c.lane].device != kernels) continue;
        Acc& a = by[c.name];
        a.share.ns += seg.ns;
        a.share.bound = seg.bound;
        a.events.insert(seg.event);
        a.per_event[seg.event] += seg.ns;
    }
    std::vector<CpShare> out;
    for (auto& [name, a] : by) {
        a.share.name = trace.names[name];
        a.share.kernel = kernels;
        a.share.events = a.events.size();
        int64_t most = -1;
        for (const auto& [event, ns] : a.per_event)
            if (ns > most) most = ns, a.share.longest = event;
        out.push_back(std::move(a.share));
    }
    finishShares(out, path_ns, step_ns);
    return out;
}

// The names of the graph's events a factor means: its exact name, or else
// every name containing it.
std::set<uint32_t> namesOf(const Trace& trace, const CpGraph& graph, const WhatIfFactor& f) {
    const bool kernel = f.target == WhatIfFactor::Target::Kernel;
    std::set<uint32_t> exact, containing;
    for (int32_t e : graph.node_events) {
        const EventCore& c = trace.events.core(size_t(e));
        if (trace.lanes[c.lane].device != kernel) continue;
        const std::string& name = trace.names[c.name];
        if (name == f.name) exact.insert(c.name);
        if (name.find(f.name) != std::string::npos) containing.insert(c.name);
    }
    if (!exact.empty()) return exact;
    if (containing.empty())
        throw std::invalid_argument(std::string("what-if: no ") + (kernel ? "kernel" : "operator") +
                                    " named or containing '" + f.name + "' in " +
                                    graph.window.label);
    return containing;
}

std::vector<int64_t> scaledWeights(const Trace& trace, const CpGraph& graph,
                                   const std::vector<WhatIfFactor>& factors) {
    std::vector<double> scale(graph.edges.size(), 1.0);
    for (const WhatIfFactor& f : factors) {
        std::set<uint32_t> names;
        if (f.target != WhatIfFactor::Target::Category) names = namesOf(trace, graph, f);
        for (size_t i = 0; i < graph.edges.size(); ++i) {
            const CpEdge& e = graph.edges[i];
            if (f.target == WhatIfFactor::Target::Category) {
                if (e.bound == f.category) scale[i] *= f.factor;
                continue;
            }
            if (e.type != CpEdgeType::Operator || e.event < 0) continue;
            const EventCore& c = trace.events.core(size_t(e.event));
            const bool kernel = f.target == WhatIfFactor::Target::Kernel;
            if (trace.lanes[c.lane].device == kernel && names.count(c.name)) scale[i] *= f.factor;
        }
    }
    std::vector<int64_t> weights(graph.edges.size());
    for (size_t i = 0; i < graph.edges.size(); ++i)
        weights[i] = int64_t(double(graph.edges[i].weight) * scale[i] + 0.5);
    return weights;
}

} // namespace

WhatIfResult whatIf(const Trace& trace, const CriticalPathReport& report,
                    const std::vector<WhatIfFactor>& factors) {
    WhatIfResult r;
    r.factors = factors;
    for (const WhatIfFactor& f : factors)
        r.label += (r.label.empty() ? "" : ", ") + describe(f);
    const std::vector<int64_t> weights = scaledWeights(trace, report.graph, factors);
    const CpPath path = longestPath(report.graph, &weights);
    r.path_ns = path.length_ns;
    r.saved_ns = report.path.length_ns - path.length_ns;
    r.step_ns = report.step_ns - r.saved_ns;
    r.segments = segmentsOf(report.graph, path, &weights);
    r.breakdown = byBound(r.segments, r.path_ns, r.step_ns);
    return r;
}

namespace {

std::vector<WhatIfResult> rankHalvings(const Trace& trace, const CriticalPathReport& report,
                                       size_t items) {
    std::vector<CpShare> top = report.operators;
    top.insert(top.end(), report.kernels.begin(), report.kernels.end());
    std::stable_sort(top.begin(), top.end(),
                     [](const CpShare& a, const CpShare& b) { return a.ns > b.ns; });
    if (top.size() > items) top.resize(items);
    std::vector<WhatIfResult> out;
    for (const CpShare& s : top) {
        WhatIfFactor f;
        f.target = s.kernel ? WhatIfFactor::Target::Kernel : WhatIfFactor::Target::Operator;
        f.name = s.name;
        f.factor = 0.5;
        out.push_back(whatIf(trace, report, {f}));
    }
    for (const CpShare& s : report.breakdown) {
        WhatIfFactor f;
        f.target = WhatIfFactor::Target::Category;
        f.category = s.bound;
        f.factor = 0.5;
        out.push_back(whatIf(trace, report, {f}));
    }
    std::stable_sort(out.begin(), out.end(), [](const WhatIfResult& a, const WhatIfResult& b) {
        return a.saved_ns > b.saved_ns;
    });
    return out;
}

} // namespace

CriticalPathReport analyseCriticalPath(const Trace& trace, const LaunchIndex& launches,
                                       const CpWindow& window, const CriticalPathOptions& options) {
    CriticalPathReport r;
    r.graph = buildCriticalPathGraph(trace, launches, window, options.graph);
    r.step_ns = window.end - window.start;
    r.path = longestPath(r.graph);
    if (!r.path.edges.empty()) {
        const CpEdge& last = r.graph.edges[size_t(r.path.edges.back())];
        r.past_window_end_ns =
            std::max<int64_t>(0, r.graph.nodes[size_t(last.to)].t - r.graph.window.end);
    }
    r.segments = segmentsOf(r.graph, r.path, nullptr);
    r.breakdown = byBound(r.segments, r.path.length_ns, r.step_ns);
    r.operators = byName(trace, r.segments, false, r.path.length_ns, r.step_ns);
    r.kernels = byName(trace, r.segments, true, r.path.length_ns, r.step_ns);
    if (!options.what_if.empty()) r.what_if = whatIf(trace, r, options.what_if);
    r.ranked = rankHalvings(trace, r, options.ranked_items);
    return r;
}

} // namespace ts
