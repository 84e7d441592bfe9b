#include "env/ValidateConfig.h"

#include "env/Devices.h"

namespace ts {

std::vector<ConfigIssue> validateConfig(const ExperimentConfig& config) {
    return validateConfigWith(config, precisionSupportProblem);
}

} // namespace ts
