#pragma once
#include <algorithm>
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

} // namespace ts
