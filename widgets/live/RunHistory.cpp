#include "live/RunHistory.h"

#include <algorithm>
#include <cmath>

namespace ts::gui {

const StepRecord* RunHistory::stepNear(double key) const {
    if (steps.empty()) return nullptr;
    const auto it =
        std::lower_bound(steps.begin(), steps.end(), key,
                         [](const StepRecord& s, double k) { return double(s.global_step) < k; });
    if (it == steps.begin()) return &*it;
    if (it == steps.end()) return &steps.back();
    const auto before = std::prev(it);
    return (key - double(before->global_step)) <= (double(it->global_step) - key) ? &*before : &*it;
}

const EpochRecord* RunHistory::epochNear(double key) const {
    const long wanted = std::lround(key) - 1;
    for (const EpochRecord& epoch : epochs)
        if (epoch.epoch == wanted) return &epoch;
    return nullptr;
}

double RunHistory::lastStepOfEpoch(int epoch) const {
    for (auto it = steps.rbegin(); it != steps.rend(); ++it)
        if (it->epoch == epoch) return double(it->global_step);
    return steps.empty() ? 0.0 : double(steps.back().global_step);
}

} // namespace ts::gui
