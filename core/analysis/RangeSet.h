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

// mergeRanges() of ranges given one by one, without keeping them: ranges
// given in order of start are joined as they come (a million CPU ops become a
// few thousand busy ranges); any out of order are merged at the end.
class RangeMerger {
public:
    void add(int64_t start, int64_t end);
    bool anyAdded() const { return added_; } // empty ranges too
    RangeList take();

private:
    RangeList ranges_;
    int64_t last_start_ = 0;
    bool added_ = false, in_order_ = true;
};
// Length of `merged` inside [start, end).
int64_t lengthWithin(const RangeList& merged, int64_t start, int64_t end);

} // namespace ts
