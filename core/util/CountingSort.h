#pragma once
// A stable sort by a small integer key: a counting pass and a placing pass
// instead of a comparison sort. For the millions of launches, kernels and
// runtime calls of a GPU trace, whose ids and event indices are numbered
// one after another, so that their range is near their count.
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace ts {

// Sorts `items` by key(item), a number in [0, span), keeping the order of
// items with equal keys. `span` is what the counts cost (4 bytes each).
template <typename T, typename Key>
void countingSortBy(std::vector<T>& items, size_t span, Key key) {
    std::vector<uint32_t> starts(span + 1, 0);
    for (const T& x : items)
        ++starts[key(x) + 1];
    std::partial_sum(starts.begin(), starts.end(), starts.begin());
    std::vector<T> sorted(items.size());
    for (const T& x : items)
        sorted[starts[key(x)]++] = x;
    items.swap(sorted);
}

// Whether keys spanning `span` values are worth a counting sort of `count`
// items, or a table indexed by key (Trace's sequence numbers): their range
// is not much larger than their number.
inline bool denseEnoughToCount(uint64_t span, size_t count) {
    return count < UINT32_MAX && span <= 4 * uint64_t(count) + 4096;
}

} // namespace ts
