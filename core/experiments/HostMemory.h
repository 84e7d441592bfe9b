#pragma once
// What the memory guard needs to know about the host: how much memory a new
// allocation can still get before the kernel's OOM killer (or a container
// limit) strikes, and a per-point peak of this process's resident set.
#include <cstdint>

namespace ts {

// min(MemAvailable, cgroup limit - cgroup usage) in bytes; the cgroup part
// (v2 memory.max / v1 memory.limit_in_bytes) only when a limit is set.
int64_t availableHostMemoryBytes();

// Restarts the kernel's peak-RSS counter (VmHWM) of this process so that the
// next peakRssBytes() covers only what follows. False when the kernel refuses
// (then VmHWM stays the lifetime peak).
bool resetPeakRss();

} // namespace ts
