#pragma once
#include <algorithm>
#include <cstddef>
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

} // namespace ts
