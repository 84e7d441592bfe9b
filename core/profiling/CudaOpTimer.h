#pragma once
// Device time of operators through pairs of CUDA events recorded on the
// current stream at op start and end. Without TRAINSCOPE_WITH_CUDA (or when not
// enabled) every call is a no-op and slots are -1. One timer per thread; not
// thread-safe itself.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts {

class CudaOpTimer {
public:
    CudaOpTimer() = default;
    ~CudaOpTimer();
    CudaOpTimer(const CudaOpTimer&) = delete;
    CudaOpTimer& operator=(const CudaOpTimer&) = delete;

    // Records the start event; returns the slot (-1 when CUDA is unavailable).
    int32_t begin();
    void end(int32_t slot);
    // Waits for the end event; 0 when the slot never ended or timing failed.
    int64_t elapsedNs(int32_t slot);
    // Makes every slot reusable (events are kept for the next window).
    void reset();

private:
    struct Slot {
        void* start = nullptr;
        void* stop = nullptr;
        bool ended = false;
    };
    std::vector<Slot> slots_;
    size_t used_ = 0;
};

} // namespace ts
