#pragma once
#include <cstdint>

namespace ts {

// Resident set size of this process now and its lifetime peak (VmHWM), bytes.
int64_t currentRssBytes();
int64_t peakRssBytes();

} // namespace ts
