#include "engine/LrSchedule.h"

#include <algorithm>
#include <cmath>

namespace ts {

LrSchedule::LrSchedule(const ExperimentConfig& config, int64_t steps_per_epoch)
    : config_(config), steps_per_epoch_(std::max<int64_t>(1, steps_per_epoch)),
      total_steps_(steps_per_epoch_ * std::max(1, config.epochs)) {}

double LrSchedule::at(int64_t step) const {
    const double peak = config_.lr;
    const int64_t warmup = config_.warmup_steps;
    if (step < warmup) return peak * double(step + 1) / double(warmup);
    if (config_.schedule == "cosine") {
        const double span = std::max<int64_t>(1, total_steps_ - warmup);
        const double progress = std::min(1.0, double(step - warmup) / span);
        return peak * 0.5 * (1.0 + std::cos(M_PI * progress));
    }
    if (config_.schedule == "step") {
        const int64_t epoch = step / steps_per_epoch_;
        return peak * std::pow(config_.lr_gamma, double(epoch / config_.lr_step_epochs));
    }
    return peak;
}

} // namespace ts
