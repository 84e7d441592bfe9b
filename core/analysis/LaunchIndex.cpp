#include "analysis/LaunchIndex.h"

#include <algorithm>

#include "analysis/LaunchLinks.h"

namespace ts {

LaunchIndex LaunchIndex::build(const Trace& trace) {
    const KinetoEvents events = collectKinetoEvents(trace, GpuAnalysisOptions{});
    return build(events, linkLaunches(trace, events));
}

LaunchIndex LaunchIndex::build(const KinetoEvents& events, const LaunchLinks& links) {
    LaunchIndex index;
    for (const RuntimeCall& call : links.runtimes) {
        if (call.event < 0) continue;
        for (int32_t position : call.device) {
            const int32_t device = events.events[size_t(position)].event;
            index.by_runtime_.emplace_back(call.event, device);
            index.by_device_.emplace_back(device, call.event);
        }
    }
    std::sort(index.by_runtime_.begin(), index.by_runtime_.end());
    std::sort(index.by_device_.begin(), index.by_device_.end());
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
