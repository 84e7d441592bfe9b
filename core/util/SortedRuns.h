#pragma once
// Sorting a list made of runs that are each in order already, one after
// another (a trace's events are stored lane by lane, each lane in time
// order): adjacent runs merge pairwise, log2(runs) passes over the items
// instead of a full sort. std::merge takes from the first range on ties, so
// the order is the one std::stable_sort gives.
#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

namespace ts {

// Sorts `items` by `before`, given where each run in `before` order starts
// (the first at 0).
template <typename T, typename Before>
void mergeSortedRuns(std::vector<T>& items, const std::vector<size_t>& run_begins, Before before) {
    if (run_begins.size() < 2) return; // one run: in order already
    std::vector<size_t> runs = run_begins;
    runs.push_back(items.size());
    std::vector<T> buffer(items.size());
    const auto at = [](std::vector<T>& v, size_t i) { return v.begin() + std::ptrdiff_t(i); };
    while (runs.size() > 2) {
        std::vector<size_t> merged{0};
        for (size_t r = 0; r + 1 < runs.size(); r += 2) {
            const size_t end = r + 2 < runs.size() ? runs[r + 2] : runs[r + 1];
            std::merge(at(items, runs[r]), at(items, runs[r + 1]), at(items, runs[r + 1]),
                       at(items, end), at(buffer, runs[r]), before);
            merged.push_back(end);
        }
        items.swap(buffer);
        runs.swap(merged);
    }
}

// Where each maximal run of `items` in `before` order starts (0 first; empty
// for no items).
template <typename T, typename Before>
std::vector<size_t> sortedRunBegins(const std::vector<T>& items, Before before) {
    std::vector<size_t> begins;
    for (size_t i = 0; i < items.size(); ++i)
        if (i == 0 || before(items[i], items[i - 1])) begins.push_back(i);
    return begins;
}

} // namespace ts
