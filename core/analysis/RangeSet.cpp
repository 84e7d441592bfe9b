#include "analysis/RangeSet.h"

#include <algorithm>

namespace ts {

RangeList mergeRanges(RangeList ranges) {
    std::sort(ranges.begin(), ranges.end());
    RangeList out;
    for (const TimeRange& r : ranges) {
        if (r.second <= r.first) continue;
        if (!out.empty() && r.first <= out.back().second)
            out.back().second = std::max(out.back().second, r.second);
        else
            out.push_back(r);
    }
    return out;
}

RangeList intersectRanges(const RangeList& a, const RangeList& b) {
    RangeList out;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const int64_t start = std::max(a[i].first, b[j].first);
        const int64_t end = std::min(a[i].second, b[j].second);
        if (start < end) out.emplace_back(start, end);
        if (a[i].second < b[j].second)
            ++i;
        else
            ++j;
    }
    return out;
}

RangeList subtractRanges(const RangeList& a, const RangeList& b) {
    RangeList out;
    size_t j = 0;
    for (const TimeRange& r : a) {
        int64_t start = r.first;
        while (j < b.size() && b[j].second <= start)
            ++j;
        size_t k = j;
        while (k < b.size() && b[k].first < r.second) {
            if (b[k].first > start) out.emplace_back(start, b[k].first);
            start = std::max(start, b[k].second);
            if (b[k].second >= r.second) break;
            ++k;
        }
        if (start < r.second) out.emplace_back(start, r.second);
    }
    return out;
}

void RangeMerger::add(int64_t start, int64_t end) {
    if (added_ && start < last_start_) in_order_ = false;
    added_ = true;
    last_start_ = start;
    if (end <= start) return;
    if (in_order_ && !ranges_.empty() && start <= ranges_.back().second)
        ranges_.back().second = std::max(ranges_.back().second, end);
    else
        ranges_.emplace_back(start, end);
}

RangeList RangeMerger::take() {
    RangeList out = in_order_ ? std::move(ranges_) : mergeRanges(std::move(ranges_));
    *this = RangeMerger();
    return out;
}

int64_t totalLength(const RangeList& merged) {
    int64_t sum = 0;
    for (const TimeRange& r : merged)
        sum += r.second - r.first;
    return sum;
}

int64_t lengthWithin(const RangeList& merged, int64_t start, int64_t end) {
    auto it = std::lower_bound(merged.begin(), merged.end(), start,
                               [](const TimeRange& r, int64_t t) { return r.second <= t; });
    int64_t sum = 0;
    for (; it != merged.end() && it->first < end; ++it)
        sum += std::min(end, it->second) - std::max(start, it->first);
    return sum;
}

} // namespace ts
