#pragma once
// Which runtime call launched which kernel, memcpy or memset, as event index
// pairs the timeline can look up both ways: selecting a kernel finds its
// launch, selecting a CPU operator finds all the device work it launched.
// Built from the same correlation links as the GPU overview (LaunchLinks).
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/KinetoEvents.h"
#include "analysis/LaunchLinks.h"
#include "trace/Trace.h"

namespace ts {

using LaunchPair = std::pair<int32_t, int32_t>; // (runtime call, device event)

class LaunchIndex {
public:
    static LaunchIndex build(const Trace& trace);
    // From links already made (GpuTraceAnalysis has them).
    static LaunchIndex build(const KinetoEvents& events, const LaunchLinks& links);
    // From the pairs byRuntime() gave (the Overview cache keeps them), in any
    // order; every event index must lie in [0, events).
    static LaunchIndex fromPairs(std::vector<LaunchPair> by_runtime, size_t events);

    bool empty() const { return by_runtime_.empty(); }
    size_t size() const { return by_runtime_.size(); }
    // The runtime call that launched a device event, -1 if none.
    int32_t launcherOf(int32_t device_event) const;
    // Every (device event, runtime call), by device event: for a pass over
    // the launched events, instead of a launcherOf search per event.
    const std::vector<LaunchPair>& byDevice() const { return by_device_; }
    // Every (runtime call, device event), by runtime call.
    const std::vector<LaunchPair>& byRuntime() const { return by_runtime_; }
    // The launches an event stands for: a device event's own launch, a runtime
    // call's device work, or for any other event the launches of the runtime
    // calls nested in it on its lane. At most `limit` pairs, in launch order;
    // `total` (optional) receives how many there are.
    std::vector<LaunchPair> linksFor(const Trace& trace, int32_t event, size_t limit,
                                     size_t* total = nullptr) const;

private:
    void appendLaunchedBy(int32_t runtime, std::vector<LaunchPair>& out) const;

    std::vector<LaunchPair> by_runtime_; // sorted by runtime call, then device event
    std::vector<LaunchPair> by_device_;  // (device event, runtime call), sorted
};

} // namespace ts
