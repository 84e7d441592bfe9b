#pragma once
// The last N values of a series, for smoothed lines that follow the data
// quickly (a trailing median ignores one slow warm-up or profiled step).
#include <algorithm>
#include <deque>
#include <vector>

namespace ts::gui {

class RollingWindow {
public:
    explicit RollingWindow(size_t size) : size_(size) {}

    void push(double value) {
        values_.push_back(value);
        if (values_.size() > size_) values_.pop_front();
    }
    void clear() { values_.clear(); }

    double mean() const {
        double sum = 0;
        for (double v : values_)
            sum += v;
        return values_.empty() ? 0.0 : sum / double(values_.size());
    }
    double median() const {
        if (values_.empty()) return 0.0;
        std::vector<double> sorted(values_.begin(), values_.end());
        const auto middle = sorted.begin() + long(sorted.size() / 2);
        std::nth_element(sorted.begin(), middle, sorted.end());
        return *middle;
    }

private:
    size_t size_;
    std::deque<double> values_;
};

} // namespace ts::gui
