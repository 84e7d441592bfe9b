#include "analysis/LaunchIndex.h"

#include <algorithm>

#include "analysis/LaunchLinks.h"
#include "util/CountingSort.h"

namespace ts {

LaunchIndex LaunchIndex::build(const Trace& trace) {
    const KinetoEvents events = collectKinetoEvents(trace, GpuAnalysisOptions{});
    return build(events, linkLaunches(trace, events));
}

namespace {

// Sorts pairs by (first, second), given that every first lies in [0, span):
// a counting sort by first when that range is near the count (event indices
// of a trace), then the few pairs sharing a first by second.
void sortPairs(std::vector<LaunchPair>& pairs, size_t span) {
    if (!denseEnoughToCount(span, pairs.size())) {
        std::sort(pairs.begin(), pairs.end());
        return;
    }
    countingSortBy(pairs, span, [](const LaunchPair& p) { return size_t(p.first); });
    for (size_t i = 0; i < pairs.size();) {
        size_t end = i + 1;
        while (end < pairs.size() && pairs[end].first == pairs[i].first)
            ++end;
        if (end - i > 1)
            std::sort(pairs.begin() + std::ptrdiff_t(i), pairs.begin() + std::ptrdiff_t(end));
        i = end;
    }
}

} // namespace

LaunchIndex LaunchIndex::build(const KinetoEvents& events, const LaunchLinks& links) {
    LaunchIndex index;
    size_t count = 0;
    int32_t last_event = -1; // the largest event index of a pair: the keys' range
    for (const RuntimeCall& call : links.runtimes)
        if (call.event >= 0) {
            count += call.device.size();
            last_event = std::max(last_event, call.event);
        }
    index.by_runtime_.reserve(count);
    index.by_device_.reserve(count);
    for (const RuntimeCall& call : links.runtimes) {
        if (call.event < 0) continue;
        for (int32_t position : call.device) {
            const int32_t device = events.events[size_t(position)].event;
            last_event = std::max(last_event, device);
            index.by_runtime_.emplace_back(call.event, device);
            index.by_device_.emplace_back(device, call.event);
        }
    }
    sortPairs(index.by_runtime_, size_t(last_event + 1));
    sortPairs(index.by_device_, size_t(last_event + 1));
    return index;
}

LaunchIndex LaunchIndex::fromPairs(std::vector<LaunchPair> by_runtime, size_t events) {
    LaunchIndex index;
    index.by_device_.reserve(by_runtime.size());
    for (const auto& [runtime, device] : by_runtime)
        index.by_device_.emplace_back(device, runtime);
    index.by_runtime_ = std::move(by_runtime);
    if (!std::is_sorted(index.by_runtime_.begin(), index.by_runtime_.end()))
        sortPairs(index.by_runtime_, events);
    sortPairs(index.by_device_, events);
    return index;
}

int32_t LaunchIndex::launcherOf(int32_t device_event) const {
    const auto it =
        std::lower_bound(by_device_.begin(), by_device_.end(), LaunchPair{device_event, INT32_MIN});
    return it != by_device_.end() && it->first == device_event ? it->second : -1;
}

void LaunchIndex::appendLaunchedBy(int32_t runtime, std::vector<LaunchPair>& out) const {
    auto it =
        std::lower_bound(by_runtime_.begin(), by_runtime_.end(), LaunchPair{runtime, INT32_MIN});
    for (; it != by_runtime_.end() && it->first == runtime; ++it)
        out.push_back(*it);
}

std::vector<LaunchPair> LaunchIndex::linksFor(const Trace& trace, int32_t event, size_t limit,
                                              size_t* total) const {
    std::vector<LaunchPair> out;
    if (event >= 0 && size_t(event) < trace.events.size() && !empty()) {
        const int32_t launcher = launcherOf(event);
        if (launcher >= 0) {
            out.emplace_back(launcher, event);
        } else {
            // Events are sorted by (lane, start): what is nested in `event`
            // follows it directly on the same lane.
            const TraceEvent& outer = trace.events[size_t(event)];
            appendLaunchedBy(event, out);
            for (size_t i = size_t(event) + 1; i < trace.events.size(); ++i) {
                const TraceEvent& inner = trace.events[i];
                if (inner.lane != outer.lane || inner.start_ns >= outer.end_ns()) break;
                appendLaunchedBy(int32_t(i), out);
            }
        }
    }
    if (total) *total = out.size();
    if (out.size() > limit) out.resize(limit);
    return out;
}

} // namespace ts
