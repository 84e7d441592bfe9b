#include "analysis/CounterSeries.h"

#include <algorithm>

namespace ts {
namespace {

// Samples per block of the block maxima: a column spanning more samples than
// a few blocks reads the blocks instead of the samples.
constexpr size_t kBlock = 64;

} // namespace

void CounterSeries::add(int64_t t_ns, double value) {
    if (!times_.empty() && times_.back() == t_ns) {
        values_.back() = value;
        return;
    }
    times_.push_back(t_ns);
    values_.push_back(value);
}

void CounterSeries::finish() {
    block_max_.clear();
    peak_ = 0;
    lowest_ = 0;
    peak_time_ = times_.empty() ? 0 : times_.front();
    for (size_t i = 0; i < values_.size(); ++i) {
        if (i % kBlock == 0) block_max_.push_back(values_[i]);
        block_max_.back() = std::max(block_max_.back(), values_[i]);
        lowest_ = std::min(lowest_, values_[i]);
        if (i == 0 || values_[i] > peak_) {
            peak_ = values_[i];
            peak_time_ = times_[i];
        }
    }
}

double CounterSeries::maxOfSamples(size_t first, size_t last) const {
    double best = values_[first];
    size_t i = first;
    for (; i < last && i % kBlock != 0; ++i)
        best = std::max(best, values_[i]);
    for (; i + kBlock <= last; i += kBlock)
        best = std::max(best, block_max_[i / kBlock]);
    for (; i < last; ++i)
        best = std::max(best, values_[i]);
    return best;
}

bool CounterSeries::maxOver(int64_t t0, int64_t t1, double& out) const {
    // The sample in effect at t0 is the last one at or before it.
    const auto begin = std::upper_bound(times_.begin(), times_.end(), t0);
    const auto end = std::lower_bound(begin, times_.end(), t1);
    const size_t first = size_t(begin - times_.begin()) - (begin == times_.begin() ? 0 : 1);
    const size_t last = size_t(end - times_.begin());
    if (first >= last) return false;
    out = maxOfSamples(first, last);
    return true;
}

BusyTrack::BusyTrack(RangeList busy) : ranges_(mergeRanges(std::move(busy))) {
    prefix_.reserve(ranges_.size());
    int64_t total = 0;
    for (const TimeRange& r : ranges_) {
        prefix_.push_back(total);
        total += r.second - r.first;
    }
}

int64_t BusyTrack::busyBefore(int64_t t) const {
    // The first range ending after t: everything before it is busy time before t.
    const auto it = std::upper_bound(ranges_.begin(), ranges_.end(), t,
                                     [](int64_t v, const TimeRange& r) { return v < r.second; });
    if (it == ranges_.end())
        return ranges_.empty() ? 0
                               : prefix_.back() + (ranges_.back().second - ranges_.back().first);
    const size_t i = size_t(it - ranges_.begin());
    return prefix_[i] + std::max<int64_t>(0, t - it->first);
}

int64_t BusyTrack::busyWithin(int64_t t0, int64_t t1) const {
    return t1 > t0 ? busyBefore(t1) - busyBefore(t0) : 0;
}

double BusyTrack::fraction(int64_t t0, int64_t t1) const {
    return t1 > t0 ? double(busyWithin(t0, t1)) / double(t1 - t0) : 0.0;
}

} // namespace ts
