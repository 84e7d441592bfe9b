#include "analysis/CriticalPathGraph.h"

#include <algorithm>
#include <tuple>

#include "analysis/CriticalPathBuilder.h"
#include "analysis/DeviceActivity.h"
#include "analysis/LaunchIndex.h"

namespace ts {
namespace {

// Calls that take the CUDA runtime's lock: only one runs at a time, across
// threads (HTA's three, and their HIP kin).
constexpr std::string_view kLockCalls[] = {"cudaLaunchKernel", "cudaMemcpyAsync", "cudaHostAlloc",
                                           "hipLaunchKernel",  "hipMemcpyAsync",  "hipHostMalloc"};
// Calls that block the thread until the GPU catches up: their time is
// waiting, not work (HTA's list, and HIP's).
constexpr std::string_view kBlockingCalls[] = {"cudaDeviceSynchronize",
                                               "cudaStreamSynchronize",
                                               "cudaEventQuery",
                                               "cudaEventSynchronize",
                                               "cudaMemcpy",
                                               "cudaMemcpyAsync",
                                               "hipDeviceSynchronize",
                                               "hipStreamSynchronize",
                                               "hipEventQuery",
                                               "hipEventSynchronize",
                                               "hipMemcpy",
                                               "hipMemcpyAsync"};
// The synchronisations Kineto records on the GPU side (cuda_sync).
constexpr std::string_view kSyncEvents[] = {"Stream Sync", "Context Sync", "Event Sync",
                                            "Stream Wait Event"};

bool isDeviceWork(KinetoCategory c) {
    return c == KinetoCategory::Kernel || c == KinetoCategory::Memcpy ||
           c == KinetoCategory::Memset;
}

std::vector<char> nameFlags(const Trace& trace, const std::string_view* names, size_t count) {
    std::vector<char> flags(trace.names.size(), 0);
    for (size_t n = 0; n < trace.names.size(); ++n)
        flags[n] = std::find(names, names + count, trace.names[n]) != names + count;
    return flags;
}

bool contains(const std::string& s, std::string_view part) {
    return s.find(part) != std::string::npos;
}

} // namespace

const char* toString(CpEdgeType type) {
    switch (type) {
    case CpEdgeType::Operator:
        return "critical_path_operator";
    case CpEdgeType::Dependency:
        return "critical_path_dependency";
    case CpEdgeType::LaunchDelay:
        return "critical_path_kernel_launch_delay";
    case CpEdgeType::KernelDelay:
        return "critical_path_kernel_kernel_delay";
    case CpEdgeType::Sync:
        return "critical_path_sync_dependency";
    }
    return "";
}

const char* toString(BoundBy bound) {
    switch (bound) {
    case BoundBy::None:
        return "";
    case BoundBy::CpuBound:
        return "cpu_bound";
    case BoundBy::GpuCompute:
        return "gpu_compute_bound";
    case BoundBy::GpuCommunication:
        return "gpu_communication_bound";
    case BoundBy::LaunchOverhead:
        return "gpu_kernel_launch_overhead";
    case BoundBy::KernelOverhead:
        return "gpu_kernel_kernel_overhead";
    case BoundBy::DataLoading:
        return "data_loading";
    }
    return "";
}

bool boundFromString(const std::string& text, BoundBy& out) {
    for (int b = 1; b < kBoundKinds; ++b)
        if (text == toString(BoundBy(b))) return out = BoundBy(b), true;
    static const std::pair<const char*, BoundBy> kShort[] = {
        {"cpu", BoundBy::CpuBound},
        {"compute", BoundBy::GpuCompute},
        {"communication", BoundBy::GpuCommunication},
        {"launch", BoundBy::LaunchOverhead},
        {"launch_overhead", BoundBy::LaunchOverhead},
        {"kernel_kernel", BoundBy::KernelOverhead},
        {"kernel_overhead", BoundBy::KernelOverhead}};
    for (const auto& [name, bound] : kShort)
        if (text == name) return out = bound, true;
    return false;
}

int32_t CpGraph::startNode(int32_t event) const {
    auto it = std::lower_bound(node_events.begin(), node_events.end(), event);
    if (it == node_events.end() || *it != event) return -1;
    return int32_t(2 * (it - node_events.begin()));
}

int32_t CpGraph::endNode(int32_t event) const {
    const int32_t start = startNode(event);
    return start < 0 ? -1 : start + 1;
}

CpBuilder::CpBuilder(const Trace& trace, const LaunchIndex& launches, const CpWindow& window,
                     const CpGraphOptions& options)
    : trace_(trace), launches_(launches), options_(options), lanes_(trace) {
    graph_.window = window;
    if (options.hta_rounding)
        std::tie(graph_.window.start, graph_.window.end) =
            htaRounded(window.start, window.end, trace.origin_ns);
    lock_name_ = nameFlags(trace, kLockCalls, std::size(kLockCalls));
    blocking_name_ = nameFlags(trace, kBlockingCalls, std::size(kBlockingCalls));
    sync_name_ = nameFlags(trace, kSyncEvents, std::size(kSyncEvents));
}

int64_t CpBuilder::startOf(int32_t event) const {
    const EventCore& c = trace_.events.core(size_t(event));
    if (!options_.hta_rounding) return c.start_ns;
    return htaRounded(c.start_ns, c.start_ns + c.dur_ns, trace_.origin_ns).first;
}

int64_t CpBuilder::endOf(int32_t event) const {
    const EventCore& c = trace_.events.core(size_t(event));
    if (!options_.hta_rounding) return c.start_ns + c.dur_ns;
    return htaRounded(c.start_ns, c.start_ns + c.dur_ns, trace_.origin_ns).second;
}

bool CpBuilder::isLockCall(int32_t event) const {
    return lock_name_[trace_.events.core(size_t(event)).name];
}

bool CpBuilder::isSync(int32_t event) const {
    const EventCore& c = trace_.events.core(size_t(event));
    return c.category == KinetoCategory::Other && sync_name_[c.name];
}

bool CpBuilder::isBlockingCall(int32_t event) const {
    return blocking_name_[trace_.events.core(size_t(event)).name];
}

// A DataLoader event or anything inside one.
bool CpBuilder::isDataLoading(int32_t event) const {
    if (!options_.data_loading) return false;
    for (int32_t e = event; e >= 0; e = trace_.events.core(size_t(e)).parent)
        if (trace_.events.core(size_t(e)).kind == EventKind::DataLoader) return true;
    return false;
}

void CpBuilder::collectCpuEvents() {
    const CpWindow& w = graph_.window;
    cpu_.assign(trace_.lanes.size(), {});
    for (size_t lane = 0; lane < trace_.lanes.size(); ++lane) {
        if (trace_.lanes[lane].device) continue;
        // Rounding moves a start up by less than a microsecond.
        size_t i = lanes_.firstStartingFrom(int32_t(lane), w.start - 1000);
        for (; i < lanes_.end(int32_t(lane)); ++i) {
            const EventCore& c = trace_.events.core(i);
            const int64_t start = startOf(int32_t(i));
            if (start > w.end) break;
            if (start < w.start || endOf(int32_t(i)) <= start) continue;
            cpu_[lane].push_back(int32_t(i));
            if (c.category == KinetoCategory::Runtime || c.category == KinetoCategory::Driver)
                if (auto ids = trace_.events.ids(i); ids && ids->correlation >= 0)
                    calls_.emplace(ids->correlation, int32_t(i));
            if (isSync(int32_t(i))) syncs_.push_back(int32_t(i)); // Event, Context Sync: no stream
        }
    }
}

// Device work launched by a call of the window, and the synchronisations on
// the streams that belong to its calls.
void CpBuilder::collectDeviceEvents() {
    const auto& by_runtime = launches_.byRuntime();
    // A synchronisation runs while its call does, which may outlast the window.
    int64_t last = graph_.window.end;
    for (const auto& [correlation, call] : calls_)
        last = std::max(last, endOf(call));
    for (const std::vector<int32_t>& lane : cpu_)
        for (int32_t call : lane) {
            auto it = std::lower_bound(by_runtime.begin(), by_runtime.end(), LaunchPair{call, -1});
            for (; it != by_runtime.end() && it->first == call; ++it) {
                const EventCore& c = trace_.events.core(size_t(it->second));
                if (!isDeviceWork(c.category) || !trace_.lanes[c.lane].device) continue;
                device_.push_back(it->second);
                last = std::max(last, endOf(it->second));
            }
        }
    for (size_t lane = 0; lane < trace_.lanes.size(); ++lane) {
        if (!trace_.lanes[lane].device) continue;
        for (size_t i = lanes_.firstStartingFrom(int32_t(lane), graph_.window.start - 1000);
             i < lanes_.end(int32_t(lane)); ++i) {
            const int64_t start = startOf(int32_t(i));
            if (start > last) break;
            if (start < graph_.window.start || !isSync(int32_t(i))) continue;
            auto ids = trace_.events.ids(i);
            if (ids && calls_.count(ids->correlation)) syncs_.push_back(int32_t(i));
        }
    }
}

void CpBuilder::makeNodes() {
    std::vector<int32_t>& events = graph_.node_events;
    for (const std::vector<int32_t>& lane : cpu_)
        for (int32_t e : lane) {
            const EventCore& c = trace_.events.core(size_t(e));
            const bool op = c.category == KinetoCategory::Operator ||
                            c.category == KinetoCategory::Runtime ||
                            c.category == KinetoCategory::Driver;
            const bool uncategorized =
                c.category == KinetoCategory::None &&
                (c.kind == EventKind::Operator || c.kind == EventKind::Backward ||
                 c.kind == EventKind::Communication || c.kind == EventKind::Runtime);
            const bool loading = options_.data_loading && c.kind == EventKind::DataLoader;
            if (op || uncategorized || loading) events.push_back(e);
        }
    events.insert(events.end(), device_.begin(), device_.end());
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());
    graph_.kernels = device_.size();
    graph_.nodes.resize(2 * events.size());
    for (size_t k = 0; k < events.size(); ++k) {
        graph_.nodes[2 * k] = CpNode{startOf(events[k]), events[k], true};
        graph_.nodes[2 * k + 1] = CpNode{endOf(events[k]), events[k], false};
    }
}

int32_t CpBuilder::addEdge(int32_t from, int32_t to, CpEdgeType type, bool zero_weight) {
    CpEdge e;
    e.from = from;
    e.to = to;
    e.type = type;
    const bool weightless =
        zero_weight || type == CpEdgeType::Dependency || type == CpEdgeType::Sync;
    e.weight = weightless ? 0 : graph_.nodes[size_t(to)].t - graph_.nodes[size_t(from)].t;
    if (e.weight < 0) {
        ++graph_.negative_edges;
        e.weight = 0;
    }
    graph_.edges.push_back(e);
    return int32_t(graph_.edges.size() - 1);
}

// Which event an operator or kernel-gap edge's time belongs to: the event
// whose start it leaves, or whose end it reaches, or between two siblings
// (an end, then a start) their parent.
void CpBuilder::attribute(int32_t edge, int32_t src_parent) {
    CpEdge& e = graph_.edges[size_t(edge)];
    if (e.type != CpEdgeType::Operator && e.type != CpEdgeType::KernelDelay) return;
    const CpNode& src = graph_.nodes[size_t(e.from)];
    const CpNode& dest = graph_.nodes[size_t(e.to)];
    if (e.type == CpEdgeType::KernelDelay || src.start)
        e.event = src.event;
    else if (!dest.start)
        e.event = dest.event;
    else
        e.event = src_parent;
}

bool CpBuilder::sharesRuntimeLock(int32_t a, int32_t b) const {
    const CpNode& x = graph_.nodes[size_t(a)];
    const CpNode& y = graph_.nodes[size_t(b)];
    return isLockCall(x.event) && isLockCall(y.event) && (x.start || !y.start);
}

// Calls holding the runtime's lock run one at a time: the order they end in
// is the order they held it, and each waited for the one before.
void CpBuilder::addRuntimeLockEdges() {
    std::vector<int32_t> lock_nodes;
    for (size_t k = 0; k < graph_.node_events.size(); ++k)
        if (isLockCall(graph_.node_events[k]))
            lock_nodes.insert(lock_nodes.end(), {int32_t(2 * k), int32_t(2 * k + 1)});
    std::sort(lock_nodes.begin(), lock_nodes.end(), [&](int32_t a, int32_t b) {
        const CpNode& x = graph_.nodes[size_t(a)];
        const CpNode& y = graph_.nodes[size_t(b)];
        return std::make_tuple(x.t, x.start, x.event) < std::make_tuple(y.t, y.start, y.event);
    });
    std::vector<int32_t> open;
    int32_t last = -1;
    for (int32_t node : lock_nodes) {
        const CpNode& n = graph_.nodes[size_t(node)];
        if (n.start) {
            open.push_back(node);
        } else {
            for (; !open.empty(); open.pop_back()) {
                const int32_t from = open.back();
                if (graph_.nodes[size_t(from)].event == n.event)
                    attribute(addEdge(from, node, CpEdgeType::Operator), n.event);
                else
                    addEdge(from, node, CpEdgeType::Dependency);
            }
            if (last >= 0 && !graph_.nodes[size_t(last)].start)
                addEdge(last, node, CpEdgeType::Dependency);
        }
        last = node;
    }
}

void CpBuilder::addCallStackEdges() {
    // HTA's rule for training loops: backward runs on the autograd thread,
    // after the forward on the main one; one stack keeps the path flowing.
    std::vector<int32_t> forward, backward;
    for (size_t lane = 0; lane < cpu_.size(); ++lane)
        for (int32_t e : cpu_[lane]) {
            const EventCore& c = trace_.events.core(size_t(e));
            if (c.category != KinetoCategory::Operator &&
                c.category != KinetoCategory::UserAnnotation && c.category != KinetoCategory::None)
                continue;
            const std::string& name = trace_.names[c.name];
            if (contains(name, "forward") &&
                std::find(forward.begin(), forward.end(), lane) == forward.end())
                forward.push_back(int32_t(lane));
            if (contains(name, "autograd") &&
                std::find(backward.begin(), backward.end(), lane) == backward.end())
                backward.push_back(int32_t(lane));
        }
    int32_t merged_into = -1, merged = -1;
    if (options_.merge_backward_thread && forward.size() == 1 && backward.size() == 1 &&
        forward[0] != backward[0]) {
        merged_into = forward[0];
        merged = backward[0];
    }
    for (size_t lane = 0; lane < cpu_.size(); ++lane) {
        if (int32_t(lane) == merged || cpu_[lane].empty()) continue;
        if (int32_t(lane) != merged_into) {
            addStackEdges(cpu_[lane]);
            continue;
        }
        std::vector<int32_t> both = cpu_[lane];
        both.insert(both.end(), cpu_[size_t(merged)].begin(), cpu_[size_t(merged)].end());
        std::sort(both.begin(), both.end(), [&](int32_t a, int32_t b) {
            return std::make_tuple(startOf(a), startOf(a) - endOf(a), a) <
                   std::make_tuple(startOf(b), startOf(b) - endOf(b), b);
        });
        addStackEdges(both);
    }
}

// One thread's events (by start, longest first) walked as a call stack:
// each node event is entered, its children visited, and left; consecutive
// points are linked, with the time between them charged to the event it
// lies in. Top-level operators are only ordered (their gaps are not work).
void CpBuilder::addStackEdges(const std::vector<int32_t>& events) {
    struct Open {
        int32_t event, parent;
        int64_t end;
    };
    std::vector<Open> stack;
    int32_t last = -1, last_parent = -1, depth = 0;
    auto leave = [&](const Open& o) {
        if (!hasNodes(o.event)) return;
        const int32_t end = graph_.endNode(o.event);
        if (last >= 0 && !sharesRuntimeLock(last, end))
            attribute(addEdge(last, end, CpEdgeType::Operator, isBlockingCall(o.event)),
                      last_parent);
        last = end;
        last_parent = o.parent;
        --depth;
    };
    for (int32_t e : events) {
        const int64_t t = startOf(e);
        while (!stack.empty() && stack.back().end <= t) {
            leave(stack.back());
            stack.pop_back();
        }
        const int32_t parent = stack.empty() ? -1 : stack.back().event;
        stack.push_back(Open{e, parent, endOf(e)});
        if (!hasNodes(e)) continue;
        const int32_t start = graph_.startNode(e);
        if (last >= 0 && !sharesRuntimeLock(last, start))
            attribute(
                addEdge(last, start, depth == 0 ? CpEdgeType::Dependency : CpEdgeType::Operator),
                last_parent);
        last = start;
        last_parent = parent;
        ++depth;
    }
    for (; !stack.empty(); stack.pop_back())
        leave(stack.back());
}

void CpBuilder::classifyEdges() {
    for (CpEdge& e : graph_.edges) {
        switch (e.type) {
        case CpEdgeType::KernelDelay:
            e.bound = BoundBy::KernelOverhead;
            continue;
        case CpEdgeType::LaunchDelay:
            e.bound = BoundBy::LaunchOverhead;
            continue;
        case CpEdgeType::Dependency:
        case CpEdgeType::Sync:
            e.bound = BoundBy::None;
            continue;
        case CpEdgeType::Operator:
            break;
        }
        if (e.event < 0) {
            e.bound = BoundBy::CpuBound;
            continue;
        }
        const EventCore& c = trace_.events.core(size_t(e.event));
        if (!trace_.lanes[c.lane].device)
            e.bound = isDataLoading(e.event) ? BoundBy::DataLoading : BoundBy::CpuBound;
        else
            e.bound = kernelTypeOf(trace_.names[c.name], c.category) == KernelType::Communication
                          ? BoundBy::GpuCommunication
                          : BoundBy::GpuCompute;
    }
}

// Kahn's order. A cycle (clock skew between CPU and GPU can make a sync
// edge point back in time) is broken at its lightest edge, with a note.
void CpBuilder::orderNodes() {
    const size_t n = graph_.nodes.size();
    std::vector<int32_t> indegree(n, 0), first(n + 1, 0), out(graph_.edges.size());
    std::vector<char> removed(graph_.edges.size(), 0);
    for (const CpEdge& e : graph_.edges)
        ++indegree[size_t(e.to)], ++first[size_t(e.from) + 1];
    for (size_t i = 0; i < n; ++i)
        first[i + 1] += first[i];
    std::vector<int32_t> fill(first.begin(), first.end() - 1);
    for (size_t i = 0; i < graph_.edges.size(); ++i)
        out[size_t(fill[size_t(graph_.edges[i].from)]++)] = int32_t(i);
    std::vector<int32_t> ready;
    std::vector<char> placed(n, 0);
    for (size_t i = 0; i < n; ++i)
        if (indegree[i] == 0) ready.push_back(int32_t(i));
    graph_.order.clear();
    while (graph_.order.size() < n) {
        while (!ready.empty()) {
            const int32_t v = ready.back();
            ready.pop_back();
            placed[size_t(v)] = 1;
            graph_.order.push_back(v);
            for (int32_t k = first[size_t(v)]; k < first[size_t(v) + 1]; ++k)
                if (!removed[size_t(out[size_t(k)])] &&
                    --indegree[size_t(graph_.edges[size_t(out[size_t(k)])].to)] == 0)
                    ready.push_back(graph_.edges[size_t(out[size_t(k)])].to);
        }
        if (graph_.order.size() == n) break;
        // Every node left waits on another: drop the lightest edge among them.
        int32_t weakest = -1;
        for (size_t i = 0; i < graph_.edges.size(); ++i) {
            const CpEdge& e = graph_.edges[i];
            if (removed[i] || placed[size_t(e.from)] || placed[size_t(e.to)]) continue;
            if (weakest < 0 || e.weight < graph_.edges[size_t(weakest)].weight)
                weakest = int32_t(i);
        }
        removed[size_t(weakest)] = 1;
        ++graph_.cycle_edges;
        if (--indegree[size_t(graph_.edges[size_t(weakest)].to)] == 0)
            ready.push_back(graph_.edges[size_t(weakest)].to);
    }
    if (graph_.cycle_edges == 0) return;
    std::vector<CpEdge> kept;
    for (size_t i = 0; i < graph_.edges.size(); ++i)
        if (!removed[i]) kept.push_back(graph_.edges[i]);
    graph_.edges.swap(kept);
    graph_.notes.push_back(std::to_string(graph_.cycle_edges) +
                           " edge(s) closed a cycle (clock skew between CPU and GPU?) and were "
                           "dropped, each the lightest of its cycle");
}

CpGraph CpBuilder::build() {
    collectCpuEvents();
    collectDeviceEvents();
    makeNodes();
    addRuntimeLockEdges();
    addCallStackEdges();
    addKernelEdges();
    classifyEdges();
    orderNodes();
    if (graph_.negative_edges > 0)
        graph_.notes.push_back(std::to_string(graph_.negative_edges) +
                               " edge(s) ran backwards in time (a child ending after its "
                               "parent, or clock skew) and count as 0");
    return std::move(graph_);
}

CpGraph buildCriticalPathGraph(const Trace& trace, const LaunchIndex& launches,
                               const CpWindow& window, const CpGraphOptions& options) {
    return CpBuilder(trace, launches, window, options).build();
}

} // namespace ts
