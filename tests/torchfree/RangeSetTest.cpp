// Range operations, as the TensorBoard plugin's test_ranges.py checks them
// (its values times 10: the ranges are integers here).
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

} // namespace
} // namespace ts
