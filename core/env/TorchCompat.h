#pragma once
// The one place where LibTorch 1.13 (Debian, CPU) and 2.x (CUDA wheels) differ
// for Trainscope, and where CUDA-only calls are hidden from CPU-only builds
// (the bodies live in TorchCompat.cpp behind TRAINSCOPE_WITH_CUDA).
#include <cstdint>
#include <string>

#include <c10/core/Device.h>
#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>
#include <torch/version.h>

#define TRAINSCOPE_TORCH_AT_LEAST(major, minor)                                                    \
    (TORCH_VERSION_MAJOR > (major) ||                                                              \
     (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

namespace at {
class Tensor;
} // namespace at
namespace torch::jit {
struct ErrorReport;
} // namespace torch::jit

namespace ts::compat {

// --- autocast -------------------------------------------------------------
// Enables/disables autocast for one device type with the given dtype. The
// API moved from set_cpu_enabled/set_enabled to per-device calls in 2.4.
void setAutocast(c10::DeviceType device, bool enabled, c10::ScalarType dtype);
void clearAutocastCache();

// --- CUDA -----------------------------------------------------------------
bool cudaBuilt(); // LibTorch compiled with CUDA (device may still be absent)
struct CudaProperties {
    std::string name;         // "NVIDIA H200"
    int64_t total_memory = 0; // bytes
    int major = 0, minor = 0; // compute capability
};
CudaProperties cudaProperties(int index);
// "9.19.0"; "" without cuDNN. cuDNN 9 numbers its versions major*10000 +
// minor*100 + patch, earlier ones major*1000 + minor*100 + patch (LibTorch
// 2.11's show_config reads 91900 the old way, as "91.9").
std::string cudnnVersion();
bool cudaSupportsBf16(int index);
void cudaSynchronize(int index);
// Waits for the work queued on `device` (nothing to wait for on the CPU).
inline void synchronize(const c10::Device& device) {
    if (device.is_cuda()) cudaSynchronize(device.index() < 0 ? 0 : device.index());
}
struct CudaMemory {
    int64_t allocated = 0;      // bytes held by tensors now
    int64_t peak_allocated = 0; // since the last reset
    int64_t reserved = 0;       // held by the caching allocator
    int64_t total = 0;          // device memory
    int64_t free = 0;           // free on the device (cudaMemGetInfo)
};
CudaMemory cudaMemory(int index);
// The allocated bytes alone, for reads inside a step: no call into the driver
// (cudaMemGetInfo), only the caching allocator's counters.
struct CudaAllocated {
    int64_t current = 0;
    int64_t peak = 0; // since the last reset
};
CudaAllocated cudaAllocated(int index);
void cudaResetPeak(int index);
void cudaEmptyCache();
void setCudnnBenchmark(bool on);
// NVTX ranges (no-ops without CUDA).
void nvtxPush(const char* name);
void nvtxPop();

// --- fused optimizer kernels ----------------------------------------------
// at::_fused_sgd_: SGD's whole update (weight decay, momentum, step) in one
// pass over each parameter, gradient and momentum buffer, on the CPU since
// LibTorch 2.4 (and CUDA). 1.13 has no such kernel: fusedSgd throws there.
bool fusedSgdBuilt();
struct FusedSgdArgs {
    double lr = 0, momentum = 0, dampening = 0, weight_decay = 0;
    bool nesterov = false;
    bool first_step = false; // the momentum buffers are new: set them to the gradient
};
// Every tensor on one device with one dtype, and each gradient and momentum
// buffer laid out as its parameter (the kernel walks their storage as one
// flat array); `momentum_buffers` is empty when momentum is 0.
void fusedSgd(c10::ArrayRef<at::Tensor> params, c10::ArrayRef<at::Tensor> grads,
              c10::ArrayRef<at::Tensor> momentum_buffers, const FusedSgdArgs& args);

// at::_fused_adam_ and at::_fused_adamw_: Adam's and AdamW's whole update in
// one pass over each parameter, gradient and moment, on the CPU since LibTorch
// 2.4 (CUDA since 2.0). 1.13 has neither: fusedAdam throws there.
bool fusedAdamBuilt();
struct FusedAdamArgs {
    double lr = 0, beta1 = 0, beta2 = 0, eps = 0, weight_decay = 0;
    bool amsgrad = false;
    bool decoupled_weight_decay = false; // AdamW's (_fused_adamw_), else Adam's L2 term
};
// Every tensor on one device with one dtype and laid out as its parameter;
// `max_exp_avg_sqs` is empty without AMSGrad; `state_steps` holds each
// parameter's step count after this step, as a float tensor on its device.
void fusedAdam(c10::ArrayRef<at::Tensor> params, c10::ArrayRef<at::Tensor> grads,
               c10::ArrayRef<at::Tensor> exp_avgs, c10::ArrayRef<at::Tensor> exp_avg_sqs,
               c10::ArrayRef<at::Tensor> max_exp_avg_sqs, c10::ArrayRef<at::Tensor> state_steps,
               const FusedAdamArgs& args);

// --- memory reporting -----------------------------------------------------
// c10::MemoryReportingInfoBase::reportMemoryUsage takes total_allocated and
// total_reserved as int64_t in 1.13 and as size_t in 2.x. The type is read off
// the base class itself, so an override compiles against either.
template <typename F> struct MemoryReportTotalOf;
template <typename C, typename R, typename P, typename A, typename T, typename D>
struct MemoryReportTotalOf<R (C::*)(P, A, T, T, D)> {
    using type = T;
};

// --- TorchScript compile errors -------------------------------------------
// The reason a torch::jit::ErrorReport gives, its first line ("Unknown builtin
// op: aten::foo."), read without what(): what() goes on to quote the archive's
// code through its debug pickles and, on a corrupt one, throws inside that
// noexcept call, which ends the process (docs/reliability.md, finding 6). ""
// when the report holds no text. The text is private to ErrorReport in 1.13
// and 2.x alike; its friend template operator<< is how LibTorch itself fills
// it, and a specialization of it for a type of ours reads it.
std::string errorReportReason(const torch::jit::ErrorReport& e);
// All of the report's text, read the same way: for a call whose arguments
// match none of an op's schemas, the schemas and why each does not match
// ("aten::to_sparse(Tensor self) -> Tensor:\n  Keyword argument layout
// unknown.") follow a first line that names no op.
std::string errorReportText(const torch::jit::ErrorReport& e);

} // namespace ts::compat
