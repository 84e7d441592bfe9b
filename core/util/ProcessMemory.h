#pragma once
#include <cstdint>

namespace ts {

// Resident set size of this process now and its lifetime peak (VmHWM), bytes.
int64_t currentRssBytes();
int64_t peakRssBytes();

// Page faults (minor + major) of the whole process since it started.
int64_t processPageFaults();

} // namespace ts
