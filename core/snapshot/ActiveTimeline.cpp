#include "snapshot/ActiveTimeline.h"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <unordered_map>

#include "snapshot/SnapshotAnalysis.h"

namespace ts {

ActiveTimeline activeTimeline(const MemorySnapshot& s, int device, size_t max_bands) {
    ActiveTimeline t;
    t.device = device;
    const AllocEvent* events = s.traceBegin(device);
    t.steps = int64_t(s.traceSize(device));
    std::vector<ActiveBand> all;
    std::unordered_map<int64_t, size_t> open; // addr -> its band
    for (int64_t i = 0; i < t.steps; ++i) {
        const AllocEvent& e = events[i];
        if (e.action == AllocAction::Alloc) {
            open[e.addr] = all.size();
            all.push_back({e.size, e.stack, i, t.steps});
        } else if (e.action == AllocAction::FreeCompleted) {
            const auto it = open.find(e.addr);
            if (it != open.end()) {
                all[it->second].end = i;
                open.erase(it);
            } else { // alive before the trace
                all.push_back({e.size, e.stack, 0, i});
            }
        }
    }
    // Blocks alive at the snapshot that no alloc of the trace opened.
    for (const auto& [bytes, stack] : blocksFromBeforeTrace(s, device, open))
        all.push_back({bytes, stack, 0, t.steps});
    // Those from before the trace sit at the bottom (MemoryViz stacks them first).
    std::stable_sort(all.begin(), all.end(),
                     [](const ActiveBand& a, const ActiveBand& b) { return a.start < b.start; });
    std::vector<size_t> by_size(all.size());
    std::iota(by_size.begin(), by_size.end(), size_t(0));
    if (all.size() > max_bands) {
        std::nth_element(by_size.begin(), by_size.begin() + std::ptrdiff_t(max_bands),
                         by_size.end(),
                         [&](size_t a, size_t b) { return all[a].size > all[b].size; });
        by_size.resize(max_bands);
        std::sort(by_size.begin(), by_size.end());
    }
    t.summarized = all.size() - by_size.size();
    t.bands.reserve(by_size.size());
    for (size_t i : by_size)
        t.bands.push_back(all[i]);
    t.allocated = memoryCurve(s, device).allocated;
    const DeviceMemorySummary d = summarizeDevice(s, device);
    t.peak = d.peak_allocated_bytes;
    return t;
}

} // namespace ts
