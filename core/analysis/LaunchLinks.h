#pragma once
// Runtime calls and the device work they launched, linked by correlation id
// (the TensorBoard plugin's rule: a kernel, memcpy or memset belongs to the
// runtime call with its correlation; one call may launch several, e.g.
// cudaLaunchCooperativeKernelMultiDevice).
#include <cstdint>
#include <vector>

#include "analysis/KinetoEvents.h"

namespace ts {

struct RuntimeCall {
    int32_t event = -1; // Trace::events index; -1 for the stand-in of stale kernels
    int64_t start = 0, end = 0;
    int64_t external_id = -1;
    int32_t lane = -1;
    std::vector<int32_t> device; // KinetoEvents::events positions, by (start, -end)
};

struct LaunchLinks {
    std::vector<RuntimeCall> runtimes; // in time order
    // Kernels whose runtime call is not in the trace (launched before the
    // profiler started): the plugin hangs them under a stand-in call.
    RuntimeCall stale;
};

// The ids (correlation, External id) are read from the trace's event store.
LaunchLinks linkLaunches(const Trace& trace, const KinetoEvents& events);

} // namespace ts
