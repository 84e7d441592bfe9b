#include "profiling/CudaOpTimer.h"

#ifdef TRAINSCOPE_WITH_CUDA
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

namespace ts {

#ifdef TRAINSCOPE_WITH_CUDA

namespace {
cudaEvent_t asEvent(void* e) {
    return static_cast<cudaEvent_t>(e);
}

void* createEvent() {
    cudaEvent_t e = nullptr;
    return cudaEventCreate(&e) == cudaSuccess ? static_cast<void*>(e) : nullptr;
}

bool record(void* event) {
    return event && cudaEventRecord(asEvent(event), c10::cuda::getCurrentCUDAStream().stream()) ==
                        cudaSuccess;
}
} // namespace

CudaOpTimer::~CudaOpTimer() {
    for (Slot& s : slots_) {
        if (s.start) cudaEventDestroy(asEvent(s.start));
        if (s.stop) cudaEventDestroy(asEvent(s.stop));
    }
}

int32_t CudaOpTimer::begin() {
    if (used_ == slots_.size()) {
        Slot s;
        s.start = createEvent();
        s.stop = createEvent();
        if (!s.start || !s.stop) {
            if (s.start) cudaEventDestroy(asEvent(s.start));
            if (s.stop) cudaEventDestroy(asEvent(s.stop));
            cudaGetLastError(); // clears the error so later CUDA calls do not report it
            return -1;
        }
        slots_.push_back(s);
    }
    Slot& s = slots_[used_];
    s.ended = false;
    if (!record(s.start)) return cudaGetLastError(), -1;
    return static_cast<int32_t>(used_++);
}

void CudaOpTimer::end(int32_t slot) {
    if (slot < 0 || static_cast<size_t>(slot) >= used_) return;
    slots_[slot].ended = record(slots_[slot].stop);
}

int64_t CudaOpTimer::elapsedNs(int32_t slot) {
    if (slot < 0 || static_cast<size_t>(slot) >= used_ || !slots_[slot].ended) return 0;
    const Slot& s = slots_[slot];
    float ms = 0;
    if (cudaEventSynchronize(asEvent(s.stop)) != cudaSuccess ||
        cudaEventElapsedTime(&ms, asEvent(s.start), asEvent(s.stop)) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return static_cast<int64_t>(static_cast<double>(ms) * 1e6);
}

#else

CudaOpTimer::~CudaOpTimer() = default;
int32_t CudaOpTimer::begin() {
    return -1;
}
void CudaOpTimer::end(int32_t) {}
int64_t CudaOpTimer::elapsedNs(int32_t) {
    return 0;
}

#endif

void CudaOpTimer::reset() {
    used_ = 0;
}

} // namespace ts
