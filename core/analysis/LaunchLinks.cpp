#include "analysis/LaunchLinks.h"

#include <algorithm>
#include <unordered_map>

namespace ts {

LaunchLinks linkLaunches(const Trace& trace, const KinetoEvents& k) {
    LaunchLinks links;
    // Sized once: a GPU trace has hundreds of thousands of runtime calls.
    const auto calls =
        size_t(std::count_if(k.events.begin(), k.events.end(),
                             [](const KinetoEvent& e) { return e.type == PluginType::Runtime; }));
    links.runtimes.reserve(calls);
    std::unordered_map<int64_t, size_t> runtime_by_correlation;
    runtime_by_correlation.reserve(calls);
    std::unordered_map<int64_t, std::vector<int32_t>> pending; // device work before its call
    for (size_t i = 0; i < k.events.size(); ++i) {
        const KinetoEvent& e = k.events[i];
        const auto position = static_cast<int32_t>(i);
        if (isDeviceType(e.type)) {
            const int64_t correlation = kinetoIds(trace, e).correlation;
            auto it = runtime_by_correlation.find(correlation);
            if (correlation >= 0 && it != runtime_by_correlation.end())
                links.runtimes[it->second].device.push_back(position);
            else
                pending[correlation].push_back(position);
        } else if (e.type == PluginType::Runtime) {
            const EventIds ids = kinetoIds(trace, e);
            RuntimeCall call{e.event, e.start, e.end, ids.external_id, -1, {}};
            if (ids.correlation >= 0) {
                auto it = pending.find(ids.correlation);
                if (it != pending.end()) {
                    call.device = std::move(it->second);
                    pending.erase(it);
                }
                runtime_by_correlation[ids.correlation] = links.runtimes.size();
            }
            links.runtimes.push_back(std::move(call));
        }
    }
    auto byStartLongestFirst = [&](int32_t a, int32_t b) {
        const KinetoEvent& x = k.events[a];
        const KinetoEvent& y = k.events[b];
        if (x.start != y.start) return x.start < y.start;
        return x.end > y.end;
    };
    for (RuntimeCall& call : links.runtimes)
        std::stable_sort(call.device.begin(), call.device.end(), byStartLongestFirst);
    // Only stale kernels are kept (memcpy/memset without a call are dropped).
    for (const auto& [correlation, positions] : pending)
        for (int32_t p : positions)
            if (k.events[p].type == PluginType::Kernel) links.stale.device.push_back(p);
    std::sort(links.stale.device.begin(), links.stale.device.end());
    std::stable_sort(links.stale.device.begin(), links.stale.device.end(), byStartLongestFirst);
    return links;
}

} // namespace ts
