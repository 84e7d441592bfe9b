#pragma once
// Time series the timeline draws as rows of their own: a counter that holds
// its value until the next sample (memory in use), and the busy time of a
// device (GPU utilization). Both answer "what happened in this pixel column"
// in O(log n) whatever the zoom, so a frame costs the pixels on screen, not
// the samples in the trace.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/RangeSet.h"

namespace ts {

class CounterSeries {
public:
    // Samples must come in time order; a sample at the time of the previous
    // one replaces it.
    void add(int64_t t_ns, double value);
    // Room for n samples (a series filled from a list of known length).
    void reserve(size_t n) {
        times_.reserve(n);
        values_.reserve(n);
    }
    // Call once after the last add (builds the block maxima).
    void finish();

    bool empty() const { return times_.empty(); }
    size_t size() const { return times_.size(); }
    int64_t timeAt(size_t i) const { return times_[i]; }
    double valueAt(size_t i) const { return values_[i]; }
    double peak() const { return peak_; }
    double lowest() const { return lowest_; } // negative for net changes that start with frees
    int64_t peakTime() const { return peak_time_; }
    // Largest value in effect during [t0, t1) (the sample before t0 counts);
    // false when the series has not started by t1.
    bool maxOver(int64_t t0, int64_t t1, double& out) const;

private:
    double maxOfSamples(size_t first, size_t last) const; // [first, last)

    std::vector<int64_t> times_;
    std::vector<double> values_;
    std::vector<double> block_max_; // max of each kBlock consecutive samples
    double peak_ = 0;
    double lowest_ = 0;
    int64_t peak_time_ = 0;
};

class BusyTrack {
public:
    explicit BusyTrack(RangeList busy = {});
    const RangeList& ranges() const { return ranges_; }
    // Busy nanoseconds inside [t0, t1).
    int64_t busyWithin(int64_t t0, int64_t t1) const;
    // Share of [t0, t1) that is busy, 0..1.
    double fraction(int64_t t0, int64_t t1) const;

private:
    // Busy time up to t (prefix sums over the merged ranges).
    int64_t busyBefore(int64_t t) const;

    RangeList ranges_;
    std::vector<int64_t> prefix_; // busy time before ranges_[i]
};

} // namespace ts
