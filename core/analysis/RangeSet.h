#pragma once
// Sorted, disjoint, half-open time ranges [start, end) and the set
// operations the GPU overview is built from (the TensorBoard plugin's
// range utilities).
#include <cstdint>
#include <utility>
#include <vector>

namespace ts {

using TimeRange = std::pair<int64_t, int64_t>; // [start, end)
using RangeList = std::vector<TimeRange>;

// Sorted by start, overlapping or touching ranges joined, empty ones dropped.
RangeList mergeRanges(RangeList ranges);
// Both inputs merged; so is the result.
RangeList intersectRanges(const RangeList& a, const RangeList& b);
RangeList subtractRanges(const RangeList& a, const RangeList& b);
int64_t totalLength(const RangeList& merged);
// Length of `merged` inside [start, end).
int64_t lengthWithin(const RangeList& merged, int64_t start, int64_t end);

} // namespace ts
