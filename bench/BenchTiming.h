#pragma once
// What the bench programs time with: a steady clock, seconds since a
// point, and the median of runs (the figure the docs quote).
#include <algorithm>
#include <chrono>
#include <vector>

namespace ts::bench {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
}

// The middle run (the upper of the two middle ones for an even count); 0 for none.
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace ts::bench
