#include "snapshot/AllocationLifetimes.h"

#include <algorithm>
#include <unordered_map>

#include "snapshot/SnapshotAnalysis.h"

namespace ts {

std::vector<ActiveBand> allocationLifetimes(const MemorySnapshot& s, int device) {
    const AllocEvent* events = s.traceBegin(device);
    const auto steps = int64_t(s.traceSize(device));
    std::vector<ActiveBand> all;
    std::unordered_map<int64_t, size_t> open; // addr -> its band
    for (int64_t i = 0; i < steps; ++i) {
        const AllocEvent& e = events[i];
        if (e.action == AllocAction::Alloc) {
            open[e.addr] = all.size();
            all.push_back({e.size, e.stack, i, steps});
        } else if (e.action == AllocAction::FreeCompleted) {
            const auto it = open.find(e.addr);
            if (it != open.end()) {
                all[it->second].end = i;
                open.erase(it);
            } else { // alive before the trace
                all.push_back({e.size, e.stack, ActiveBand::kBeforeTrace, i});
            }
        }
    }
    // Blocks alive at the snapshot that no alloc of the trace opened.
    for (const auto& [bytes, stack] : blocksFromBeforeTrace(s, device, open))
        all.push_back({bytes, stack, ActiveBand::kBeforeTrace, steps});
    // Those from before the trace sit at the bottom (MemoryViz stacks them first).
    std::stable_sort(all.begin(), all.end(),
                     [](const ActiveBand& a, const ActiveBand& b) { return a.start < b.start; });
    return all;
}

} // namespace ts
