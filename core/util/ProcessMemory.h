#pragma once
#include <cstdint>

namespace ts {

// Resident set size of this process now and its lifetime peak (VmHWM), bytes.
int64_t currentRssBytes();
int64_t peakRssBytes();

// Page faults (minor + major) of the whole process since it started.
int64_t processPageFaults();
// Bytes one fault maps: a 4 KiB base page (transparent huge pages aside).
inline constexpr double kPageBytes = 4096.0;

} // namespace ts
