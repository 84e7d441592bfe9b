#pragma once
// Runtime calls and the device work they launched, linked by correlation id
// (the TensorBoard plugin's rule: a kernel, memcpy or memset belongs to the
// runtime call with its correlation; one call may launch several, e.g.
// cudaLaunchCooperativeKernelMultiDevice).
#include <cstdint>
#include <vector>

#include "analysis/IndexSpan.h"
#include "analysis/KinetoEvents.h"

namespace ts {

// KinetoEvents::events positions of one call's device work, by (start,
// -end): a view of its LaunchLinks' one list.
using DevicePositions = IndexSpan;

struct RuntimeCall {
    int32_t event = -1; // Trace::events index; -1 for the stand-in of stale kernels
    int64_t start = 0, end = 0;
    int64_t external_id = -1;
    int32_t lane = -1;
    DevicePositions device; // into the LaunchLinks that holds this call
};

class LaunchLinks {
public:
    std::vector<RuntimeCall> runtimes; // in time order
    // Kernels whose runtime call is not in the trace (launched before the
    // profiler started): the plugin hangs them under a stand-in call.
    RuntimeCall stale;

    LaunchLinks() = default;
    // A copy's calls view the copy's positions.
    LaunchLinks(const LaunchLinks& other);
    LaunchLinks& operator=(const LaunchLinks& other);
    LaunchLinks(LaunchLinks&&) = default; // a moved vector keeps its buffer
    LaunchLinks& operator=(LaunchLinks&&) = default;

private:
    friend LaunchLinks linkLaunches(const Trace& trace, const KinetoEvents& events);
    void rebase(const LaunchLinks& from);

    std::vector<int32_t> positions_; // every call's device work, call after call
    std::vector<int32_t> stale_positions_;
};

// The ids (correlation, External id) are read from the trace's event store.
LaunchLinks linkLaunches(const Trace& trace, const KinetoEvents& events);

} // namespace ts
