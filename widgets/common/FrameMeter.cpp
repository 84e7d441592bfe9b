#include "common/FrameMeter.h"

#include <algorithm>
#include <cmath>

namespace ts::gui {

double FrameMeter::max() const {
    return samples_.empty() ? 0.0 : *std::max_element(samples_.begin(), samples_.end());
}

double FrameMeter::percentile(double q) const {
    if (samples_.empty()) return 0.0;
    std::vector<double> sorted = samples_;
    std::sort(sorted.begin(), sorted.end());
    const double rank = std::ceil(std::clamp(q, 0.0, 1.0) * double(sorted.size()));
    const size_t index = size_t(std::max(1.0, rank)) - 1;
    return sorted[std::min(index, sorted.size() - 1)];
}

} // namespace ts::gui
