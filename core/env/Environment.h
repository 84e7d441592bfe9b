#pragma once
// Probes what the machine and the LibTorch build offer (records/EnvironmentInfo.h).
#include "records/EnvironmentInfo.h"

namespace ts {

// Probes the running process (threads as currently set).
EnvironmentInfo probeEnvironment();

} // namespace ts
