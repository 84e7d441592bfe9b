// util/SortedRuns: merging runs that are each in order gives what
// std::stable_sort gives (ties keep their order), for any number of runs,
// including one, none, empty lists and runs of one item.
#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "util/SortedRuns.h"

using namespace ts;

namespace {

using Item = std::pair<int, int>; // (key, original position)

bool byKey(const Item& a, const Item& b) {
    return a.first < b.first;
}

} // namespace

TEST(SortedRuns, MergingRunsIsAStableSort) {
    std::mt19937 rng(5);
    for (int lists = 0; lists < 300; ++lists) {
        // Up to 9 runs, each sorted by key, keys with many ties.
        std::vector<Item> items;
        const int runs = int(rng() % 10);
        for (int r = 0; r < runs; ++r) {
            std::vector<int> keys(rng() % 40);
            for (int& k : keys)
                k = int(rng() % 25);
            std::sort(keys.begin(), keys.end());
            for (int k : keys)
                items.emplace_back(k, int(items.size()));
        }
        std::vector<Item> expected = items;
        std::stable_sort(expected.begin(), expected.end(), byKey);
        const std::vector<size_t> begins = sortedRunBegins(items, byKey);
        ASSERT_LE(begins.size(), size_t(std::max(runs, 0)));
        if (!items.empty()) {
            EXPECT_EQ(begins.front(), 0u);
        }
        mergeSortedRuns(items, begins, byKey);
        ASSERT_EQ(items, expected) << "list " << lists << " of " << runs << " runs";
    }
}

TEST(SortedRuns, RunBeginsAreWhereTheOrderBreaks) {
    const std::vector<int> items = {1, 2, 2, 5, 0, 3, 3, 1, 9};
    const auto less = [](int a, int b) { return a < b; };
    EXPECT_EQ(sortedRunBegins(items, less), (std::vector<size_t>{0, 4, 7}));
    EXPECT_TRUE(sortedRunBegins(std::vector<int>{}, less).empty());
}
