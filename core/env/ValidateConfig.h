#pragma once
// Config validation against this machine: the value checks of
// config/ExperimentConfig.h with the device and precision support LibTorch
// reports here (env/Devices.h). What the engine, the CLI and the GUI call.
#include <vector>

#include "config/ExperimentConfig.h"

namespace ts {

// Empty result = valid and runnable here.
std::vector<ConfigIssue> validateConfig(const ExperimentConfig& config);

} // namespace ts
