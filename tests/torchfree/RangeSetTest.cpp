// Range operations, as the TensorBoard plugin's test_ranges.py checks them
// (its values times 10: the ranges are integers here).
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "analysis/RangeSet.h"

namespace ts {
namespace {

TEST(RangeSet, MergeJoinsOverlappingAndNestedRanges) {
    EXPECT_EQ(mergeRanges({{11, 22}, {15, 23}, {33, 39}, {35, 36}, {37, 38}, {41, 42}}),
              (RangeList{{11, 23}, {33, 39}, {41, 42}}));
    EXPECT_EQ(mergeRanges({{5, 10}, {10, 12}, {3, 3}}), (RangeList{{5, 12}})); // touching join
}

const RangeList kA = {{11, 22}, {33, 44}, {55, 66}};
const RangeList kB = {{0, 1}, {10, 14}, {15, 16}, {19, 34}, {43, 46}};

TEST(RangeSet, Subtract) {
    EXPECT_EQ(subtractRanges(kA, kB), (RangeList{{14, 15}, {16, 19}, {34, 43}, {55, 66}}));
}

TEST(RangeSet, Intersect) {
    EXPECT_EQ(intersectRanges(kA, kB),
              (RangeList{{11, 14}, {15, 16}, {19, 22}, {33, 34}, {43, 44}}));
}

TEST(RangeSet, Lengths) {
    EXPECT_EQ(totalLength(kA), 33);
    EXPECT_EQ(lengthWithin(kA, 20, 60), 2 + 11 + 5);
}

// The merger must give mergeRanges' result whether the ranges come sorted
// by start (the overview's case: it joins them as they come) or not.
TEST(RangeSet, MergerGivesMergeRangesResultInAnyOrder) {
    std::mt19937 random(7);
    for (int round = 0; round < 200; ++round) {
        RangeList ranges(random() % 40);
        for (TimeRange& r : ranges) {
            r.first = random() % 200;
            r.second = r.first + int64_t(random() % 30) - 3; // some empty or inverted
        }
        if (round % 2 == 0) std::sort(ranges.begin(), ranges.end());
        RangeMerger merger;
        for (const TimeRange& r : ranges)
            merger.add(r.first, r.second);
        EXPECT_EQ(merger.anyAdded(), !ranges.empty());
        EXPECT_EQ(merger.take(), mergeRanges(ranges)) << "round " << round;
        EXPECT_FALSE(merger.anyAdded()); // take() leaves it empty
    }
}

} // namespace
} // namespace ts
