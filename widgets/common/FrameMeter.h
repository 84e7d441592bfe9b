#pragma once
// Collects frame (or tick) durations and reports median / p95 / max; used to
// check the "no frame over 50 ms" goal while training and in bench_timeline.
#include <vector>

namespace ts::gui {

class FrameMeter {
public:
    void record(double ms) { samples_.push_back(ms); }
    void reset() { samples_.clear(); }
    int count() const { return int(samples_.size()); }
    double median() const { return percentile(0.5); }
    double p95() const { return percentile(0.95); }
    double max() const;
    double last() const { return samples_.empty() ? 0.0 : samples_.back(); }
    // Nearest-rank percentile, q in [0, 1]; 0 without samples.
    double percentile(double q) const;

private:
    std::vector<double> samples_;
};

} // namespace ts::gui
