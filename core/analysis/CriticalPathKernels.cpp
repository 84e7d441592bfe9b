// The GPU pass of the critical path graph: each kernel, copy and set of the
// window after its launch (when it waited for it) or after the previous
// work on its stream (when it waited in the queue), and the
// synchronisations that made a CPU call or another stream wait for it.
#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/CriticalPathBuilder.h"
#include "analysis/LaunchIndex.h"

namespace ts {
namespace {

// A gap between kernels longer than this is no queueing: something the
// trace does not show held the stream (HTA's 1.5 ms threshold).
constexpr int64_t kKernelGapLimitNs = 1'500'000;

struct Launched {
    int64_t launch = 0; // start of the runtime call
    int32_t event = -1; // the device event
    int32_t call = -1;  // the runtime call
};

// A stream's launches and starts around the window: how many launched
// kernels had not started at a time (HTA's queue length).
struct StreamQueueCounts {
    std::vector<int64_t> launches, starts; // sorted
    int64_t pending(int64_t t) const {
        const auto launched =
            std::upper_bound(launches.begin(), launches.end(), t) - launches.begin();
        const auto started = std::upper_bound(starts.begin(), starts.end(), t) - starts.begin();
        return std::max<int64_t>(0, launched - started);
    }
};

} // namespace

void CpBuilder::addKernelEdges() {
    const CpWindow& w = graph_.window;
    // Per stream: the graph's work by launch, and the queue counts.
    std::map<int32_t, std::vector<Launched>> by_lane;
    int64_t last_launch = w.end;
    for (int32_t k : device_) {
        const int32_t call = launches_.launcherOf(k);
        const int64_t t = startOf(call);
        by_lane[trace_.events.core(size_t(k)).lane].push_back(Launched{t, k, call});
        last_launch = std::max(last_launch, t);
    }
    std::map<int32_t, StreamQueueCounts> queues;
    for (auto& [lane, list] : by_lane) {
        std::sort(list.begin(), list.end(), [](const Launched& a, const Launched& b) {
            return std::tie(a.launch, a.event) < std::tie(b.launch, b.event);
        });
        StreamQueueCounts& q = queues[lane];
        for (size_t i = lanes_.firstStartingFrom(lane, w.start - 1000); i < lanes_.end(lane); ++i) {
            if (startOf(int32_t(i)) < w.start) continue;
            const int32_t call = launches_.launcherOf(int32_t(i));
            if (call < 0) continue;
            const int64_t launch = startOf(call);
            if (launch > last_launch) break; // launches are in order on a stream
            q.launches.push_back(launch);
            q.starts.push_back(startOf(int32_t(i)));
        }
        std::sort(q.launches.begin(), q.launches.end());
        std::sort(q.starts.begin(), q.starts.end());
    }
    auto laneOfStream = [&](int64_t stream) {
        for (const auto& [lane, list] : by_lane)
            if (trace_.lanes[size_t(lane)].stream == stream) return lane;
        return -1;
    };
    auto callOf = [&](int32_t sync) {
        auto ids = trace_.events.ids(size_t(sync));
        auto it = ids ? calls_.find(ids->correlation) : calls_.end();
        return it == calls_.end() ? -1 : it->second;
    };
    // The kernel a CUDA event waited for: the last one launched on the
    // recorded stream before the cudaEventRecord call.
    auto recordedKernel = [&](int32_t sync) {
        const std::optional<SyncWait> wait = trace_.syncWaitOf(sync);
        if (!wait || wait->stream < 0) return -1;
        auto record = calls_.find(wait->record_correlation);
        const int32_t lane = laneOfStream(wait->stream);
        if (record == calls_.end() || lane < 0) return -1;
        const int64_t t = startOf(record->second);
        const std::vector<Launched>& list = by_lane[lane];
        auto it = std::upper_bound(list.begin(), list.end(), t,
                                   [](int64_t x, const Launched& l) { return x < l.launch; });
        return it == list.begin() ? -1 : std::prev(it)->event;
    };
    // The next kernel the thread of a cudaStreamWaitEvent launched on the
    // waiting stream.
    auto nextLaunch = [&](int32_t sync, int32_t call) {
        const int32_t lane = trace_.events.core(size_t(sync)).lane;
        auto found = by_lane.find(lane);
        if (found == by_lane.end()) return -1;
        const int32_t thread = trace_.events.core(size_t(call)).lane;
        for (const Launched& l : found->second)
            if (l.launch >= startOf(call) && trace_.events.core(size_t(l.call)).lane == thread)
                return l.event;
        return -1;
    };

    // Kernels by start, synchronisations by end (a stream sync overlaps the
    // copy it waits for).
    std::vector<std::pair<int64_t, int32_t>> items;
    for (int32_t k : device_)
        items.emplace_back(startOf(k), k);
    for (int32_t s : syncs_)
        items.emplace_back(endOf(s), s);
    std::sort(items.begin(), items.end());
    std::map<int32_t, int32_t> last_node; // lane -> end node of its last work
    std::map<int32_t, int32_t> waits_on;  // kernel -> kernel of another stream
    size_t unlinked_syncs = 0;
    for (const auto& [t, ev] : items) {
        const EventCore& c = trace_.events.core(size_t(ev));
        if (isSync(ev)) {
            const std::string& name = trace_.names[c.name];
            const int32_t call = callOf(ev);
            if (name == "Event Sync" || name == "Stream Wait Event") {
                const int32_t src = recordedKernel(ev);
                if (src < 0) {
                    ++unlinked_syncs;
                    continue;
                }
                if (name == "Stream Wait Event") {
                    const int32_t dest = call >= 0 ? nextLaunch(ev, call) : -1;
                    if (dest >= 0) waits_on[dest] = src;
                } else if (call >= 0) {
                    addEdge(graph_.endNode(src), graph_.endNode(call), CpEdgeType::Sync);
                }
                continue;
            }
            if (call < 0 || !hasNodes(call)) continue;
            if (name == "Context Sync") {
                for (const auto& [lane, node] : last_node)
                    addEdge(node, graph_.endNode(call), CpEdgeType::Sync);
            } else if (auto it = last_node.find(c.lane); it != last_node.end()) {
                addEdge(it->second, graph_.endNode(call), CpEdgeType::Sync);
            }
            continue;
        }
        const int32_t start = graph_.startNode(ev);
        attribute(addEdge(start, start + 1, CpEdgeType::Operator), -1);
        const int32_t call = launches_.launcherOf(ev);
        const int64_t launch_t = startOf(call);
        const int64_t start_t = startOf(ev);
        int32_t sync_end = -1;
        if (auto it = waits_on.find(ev); it != waits_on.end()) {
            sync_end = graph_.endNode(it->second);
            if (sync_end >= 0) addEdge(sync_end, start, CpEdgeType::Sync);
            waits_on.erase(it);
        }
        const StreamQueueCounts& q = queues[c.lane];
        auto last = last_node.find(c.lane);
        const int32_t prev = last == last_node.end() ? -1 : last->second;
        const int64_t prev_t = prev < 0 ? INT64_MIN : graph_.nodes[size_t(prev)].t;
        const int64_t sync_t = sync_end < 0 ? INT64_MIN : graph_.nodes[size_t(sync_end)].t;
        bool launch_edge = false, linked = sync_end >= 0;
        if (q.pending(launch_t) == 1 && q.pending(start_t) == 0 && prev_t < launch_t &&
            sync_t < launch_t && hasNodes(call)) {
            addEdge(graph_.startNode(call), start, CpEdgeType::LaunchDelay);
            launch_edge = linked = true;
        } else if (prev >= 0 && start_t - prev_t < kKernelGapLimitNs && sync_t < prev_t) {
            attribute(addEdge(prev, start, CpEdgeType::KernelDelay), -1);
            linked = true;
        }
        if (!linked) ++graph_.unlinked_kernels;
        if (options_.launch_causality && !launch_edge && hasNodes(call))
            addEdge(graph_.startNode(call), start, CpEdgeType::LaunchDelay, true);
        last_node[c.lane] = start + 1;
    }
    if (unlinked_syncs > 0)
        graph_.notes.push_back(std::to_string(unlinked_syncs) +
                               " event synchronisation(s) name no cudaEventRecord of the "
                               "window (or the trace has no wait_on fields: PyTorch before 2.3)");
}

} // namespace ts
