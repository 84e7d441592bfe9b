#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts {

// Median of a copy of `values` (0 for none): robust to the stragglers that
// make means useless for step times.
inline double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    double upper = values[mid];
    if (values.size() % 2) return upper;
    const double lower = *std::max_element(values.begin(), values.begin() + mid);
    return 0.5 * (lower + upper);
}

// The `p` quantile (0..1) of `sorted` (ascending, not empty), interpolated
// linearly between the two nearest values (numpy's and pandas' default).
template <typename T> double linearQuantile(const std::vector<T>& sorted, double p) {
    const double position = p * double(sorted.size() - 1);
    const size_t below = size_t(position);
    if (below + 1 >= sorted.size()) return double(sorted.back());
    const double fraction = position - double(below);
    return double(sorted[below]) + fraction * (double(sorted[below + 1]) - double(sorted[below]));
}

// pandas' describe() of a sample: count, mean, sample standard deviation
// (NaN for one value), min, quartiles interpolated linearly, max. What HTA
// prints for idle intervals, queue lengths and bandwidths.
struct Description {
    int64_t count = 0;
    double mean = 0, std = 0, min = 0, p25 = 0, p50 = 0, p75 = 0, max = 0;
};

template <typename T> Description describe(std::vector<T> values) {
    Description s;
    s.count = int64_t(values.size());
    if (values.empty()) return s;
    std::sort(values.begin(), values.end());
    double sum = 0;
    for (T v : values)
        sum += double(v);
    s.mean = sum / double(values.size());
    double squares = 0;
    for (T v : values)
        squares += (double(v) - s.mean) * (double(v) - s.mean);
    s.std = values.size() > 1 ? std::sqrt(squares / double(values.size() - 1)) : std::nan("");
    s.min = double(values.front());
    s.max = double(values.back());
    s.p25 = linearQuantile(values, 0.25);
    s.p50 = linearQuantile(values, 0.5);
    s.p75 = linearQuantile(values, 0.75);
    return s;
}

} // namespace ts
