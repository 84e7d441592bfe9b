#include "env/TorchCompat.h"

#include <ATen/Context.h>
#include <ATen/autocast_mode.h>
#include <ATen/core/Tensor.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/csrc/jit/frontend/error_report.h>
#include <torch/cuda.h>

#include <stdexcept>

#if TRAINSCOPE_TORCH_AT_LEAST(2, 4)
#include <ATen/ops/_fused_adam.h>
#include <ATen/ops/_fused_adamw.h>
#include <ATen/ops/_fused_sgd.h>
#endif
#ifdef TRAINSCOPE_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <cuda_runtime_api.h>
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define TRAINSCOPE_HAVE_NVTX 1
#elif __has_include(<nvToolsExt.h>)
#include <nvToolsExt.h>
#define TRAINSCOPE_HAVE_NVTX 1
#endif
#endif

namespace ts::compat {
namespace {
struct ErrorReportText {
    std::string* out;
};
} // namespace
} // namespace ts::compat

// ErrorReport befriends every specialization of this template, so this one
// may read the report's private text.
namespace torch::jit {
template <>
const ErrorReport& operator<< <ts::compat::ErrorReportText>(const ErrorReport& e,
                                                            const ts::compat::ErrorReportText& t) {
    *t.out = e.ss.str();
    return e;
}
} // namespace torch::jit

namespace ts::compat {

std::string errorReportText(const torch::jit::ErrorReport& e) {
    std::string text;
    e << ErrorReportText{&text};
    return text;
}

std::string errorReportReason(const torch::jit::ErrorReport& e) {
    const std::string text = errorReportText(e);
    const size_t begin = text.find_first_not_of(" \t\n");
    if (begin == std::string::npos) return "";
    const size_t end = text.find('\n', begin);
    std::string line =
        end == std::string::npos ? text.substr(begin) : text.substr(begin, end - begin);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
        line.pop_back();
    return line;
}

void setAutocast(c10::DeviceType device, bool enabled, c10::ScalarType dtype) {
#if TRAINSCOPE_TORCH_AT_LEAST(2, 4)
    at::autocast::set_autocast_enabled(device, enabled);
    if (enabled) at::autocast::set_autocast_dtype(device, dtype);
#else
    if (device == c10::DeviceType::CPU) {
        at::autocast::set_cpu_enabled(enabled);
        if (enabled) at::autocast::set_autocast_cpu_dtype(dtype);
    } else {
        at::autocast::set_enabled(enabled);
        if (enabled) at::autocast::set_autocast_gpu_dtype(dtype);
    }
#endif
}

void clearAutocastCache() {
    at::autocast::clear_cache();
}

bool cudaBuilt() {
#ifdef TRAINSCOPE_WITH_CUDA
    return true;
#else
    return false;
#endif
}

CudaProperties cudaProperties(int index) {
    CudaProperties p;
#ifdef TRAINSCOPE_WITH_CUDA
    const cudaDeviceProp* prop = at::cuda::getDeviceProperties(index);
    p.name = prop->name;
    p.total_memory = static_cast<int64_t>(prop->totalGlobalMem);
    p.major = prop->major;
    p.minor = prop->minor;
#else
    p.name = "cuda:" + std::to_string(index);
#endif
    return p;
}

std::string cudnnVersion() {
    if (!at::globalContext().hasCuDNN()) return "";
    const long v = at::detail::getCUDAHooks().versionCuDNN();
    const long major = v >= 90000 ? v / 10000 : v / 1000;
    const long minor = v >= 90000 ? v / 100 % 100 : v / 100 % 10;
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(v % 100);
}

bool cudaSupportsBf16(int index) {
#ifdef TRAINSCOPE_WITH_CUDA
    return cudaProperties(index).major >= 8;
#else
    (void)index;
    return false;
#endif
}

void cudaSynchronize(int index) {
    if (torch::cuda::is_available()) torch::cuda::synchronize(index);
}

#ifdef TRAINSCOPE_WITH_CUDA
namespace {
// StatType::AGGREGATE is 0 in every version, but the enum moved from
// CUDACachingAllocator to c10::CachingAllocator / CachingDeviceAllocator in
// 2.x (checked against 2.11's headers on an H100 machine); so did the stats'
// type, hence the template.
constexpr size_t kAggregateStat = 0;

template <typename DeviceStats> CudaAllocated allocatedOf(const DeviceStats& stats) {
    return {stats.allocated_bytes[kAggregateStat].current,
            stats.allocated_bytes[kAggregateStat].peak};
}
} // namespace
#endif

CudaAllocated cudaAllocated(int index) {
#ifdef TRAINSCOPE_WITH_CUDA
    return allocatedOf(c10::cuda::CUDACachingAllocator::getDeviceStats(index));
#else
    (void)index;
    return {};
#endif
}

CudaMemory cudaMemory(int index) {
    CudaMemory m;
#ifdef TRAINSCOPE_WITH_CUDA
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(index); // copied once
    const CudaAllocated allocated = allocatedOf(stats);
    m.allocated = allocated.current;
    m.peak_allocated = allocated.peak;
    m.reserved = stats.reserved_bytes[kAggregateStat].current;
    size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess) {
        m.free = static_cast<int64_t>(free);
        m.total = static_cast<int64_t>(total);
    }
#else
    (void)index;
#endif
    return m;
}

void cudaResetPeak(int index) {
#ifdef TRAINSCOPE_WITH_CUDA
    c10::cuda::CUDACachingAllocator::resetPeakStats(index);
#else
    (void)index;
#endif
}

void cudaEmptyCache() {
#ifdef TRAINSCOPE_WITH_CUDA
    c10::cuda::CUDACachingAllocator::emptyCache();
#endif
}

void setCudnnBenchmark(bool on) {
    at::globalContext().setBenchmarkCuDNN(on);
}

void nvtxPush(const char* name) {
#ifdef TRAINSCOPE_HAVE_NVTX
    nvtxRangePushA(name);
#else
    (void)name;
#endif
}

void nvtxPop() {
#ifdef TRAINSCOPE_HAVE_NVTX
    nvtxRangePop();
#endif
}

bool fusedSgdBuilt() {
    return TRAINSCOPE_TORCH_AT_LEAST(2, 4);
}

void fusedSgd(c10::ArrayRef<at::Tensor> params, c10::ArrayRef<at::Tensor> grads,
              c10::ArrayRef<at::Tensor> momentum_buffers, const FusedSgdArgs& a) {
#if TRAINSCOPE_TORCH_AT_LEAST(2, 4)
    at::_fused_sgd_(params, grads, momentum_buffers, a.weight_decay, a.momentum, a.lr, a.dampening,
                    a.nesterov, /*maximize=*/false, a.first_step);
#else
    (void)params, (void)grads, (void)momentum_buffers, (void)a;
    throw std::logic_error("LibTorch " TORCH_VERSION " has no fused SGD kernel (2.4 added it)");
#endif
}

bool fusedAdamBuilt() {
    return TRAINSCOPE_TORCH_AT_LEAST(2, 4);
}

void fusedAdam(c10::ArrayRef<at::Tensor> params, c10::ArrayRef<at::Tensor> grads,
               c10::ArrayRef<at::Tensor> exp_avgs, c10::ArrayRef<at::Tensor> exp_avg_sqs,
               c10::ArrayRef<at::Tensor> max_exp_avg_sqs, c10::ArrayRef<at::Tensor> state_steps,
               const FusedAdamArgs& a) {
#if TRAINSCOPE_TORCH_AT_LEAST(2, 4)
    if (a.decoupled_weight_decay)
        at::_fused_adamw_(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, a.lr,
                          a.beta1, a.beta2, a.weight_decay, a.eps, a.amsgrad, /*maximize=*/false);
    else
        at::_fused_adam_(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, a.lr,
                         a.beta1, a.beta2, a.weight_decay, a.eps, a.amsgrad, /*maximize=*/false);
#else
    (void)params, (void)grads, (void)exp_avgs, (void)exp_avg_sqs, (void)max_exp_avg_sqs;
    (void)state_steps, (void)a;
    throw std::logic_error("LibTorch " TORCH_VERSION " has no fused Adam kernel (2.4 added it)");
#endif
}

} // namespace ts::compat
