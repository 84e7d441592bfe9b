#pragma once
// Kineto traces before PyTorch 1.10 record each "[memory]" event's change
// ("Bytes") but not the device's totals ("Total Allocated"). The running sum
// of the changes is then the memory allocated since the trace began: its
// rises, falls and peak time are right, its level is not what was in use
// (memory allocated before the trace is missing, so frees of it can take the
// sum below zero). The Memory view's curve and the timeline's memory rows
// both count it this way.
#include <cstdint>

namespace ts {

// Feed one device's events in time order.
class RunningAllocated {
public:
    // The allocated bytes after an event: its recorded total, or the running
    // sum of the changes when it has none (total_allocated < 0).
    int64_t after(int64_t bytes, int64_t total_allocated) {
        running_ += bytes;
        if (total_allocated >= 0) return total_allocated;
        from_deltas_ = true;
        return running_;
    }
    // Some value was a running sum, not a recorded total.
    bool fromDeltas() const { return from_deltas_; }

private:
    int64_t running_ = 0;
    bool from_deltas_ = false;
};

} // namespace ts
