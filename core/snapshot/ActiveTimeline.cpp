#include "snapshot/ActiveTimeline.h"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace ts {

ActiveTimeline activeTimeline(const MemorySnapshot& s, int device, size_t max_bands,
                              const SnapshotFilter& filter) {
    FilteredAllocations f = filterAllocations(s, device, filter);
    ActiveTimeline t;
    t.device = device;
    t.steps = int64_t(s.traceSize(device));
    t.first = f.first;
    t.last = f.last;
    std::vector<size_t> by_size(f.bands.size());
    std::iota(by_size.begin(), by_size.end(), size_t(0));
    if (f.bands.size() > max_bands) {
        std::nth_element(by_size.begin(), by_size.begin() + std::ptrdiff_t(max_bands),
                         by_size.end(),
                         [&](size_t a, size_t b) { return f.bands[a].size > f.bands[b].size; });
        by_size.resize(max_bands);
        std::sort(by_size.begin(), by_size.end());
    }
    t.summarized = f.bands.size() - by_size.size();
    t.bands.reserve(by_size.size());
    for (size_t i : by_size)
        t.bands.push_back(f.bands[i]);
    t.allocated = std::move(f.allocated);
    t.peak = f.peak_bytes;
    t.peak_entry = f.peak_entry;
    return t;
}

} // namespace ts
