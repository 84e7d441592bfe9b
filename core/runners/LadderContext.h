#pragma once
// What the optimization ladder's rungs need to know about this machine
// (LadderContext, experiments/Ladder.h), asked of LibTorch.
#include <string>

#include "experiments/Ladder.h"

namespace ts {

// Probes this machine for `device`.
LadderContext probeLadderContext(const std::string& device);

} // namespace ts
