#pragma once
// Learning rate as a pure function of the global step, so a resumed run gets
// exactly the rates an uninterrupted one would.
#include <cstdint>

#include "config/ExperimentConfig.h"

namespace ts {

class LrSchedule {
public:
    LrSchedule(const ExperimentConfig& config, int64_t steps_per_epoch);
    double at(int64_t global_step) const;

private:
    const ExperimentConfig config_;
    int64_t steps_per_epoch_;
    int64_t total_steps_;
};

} // namespace ts
