#pragma once
// What the machine and the LibTorch build offer, as recorded in every run.json so
// that runs from different machines can be compared honestly. Plain data: the
// probe that fills it (env/Environment.h) needs LibTorch, readers of records do not.
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

struct CudaDeviceInfo {
    int index = 0;
    std::string name;
    int64_t total_memory = 0;
    int major = 0, minor = 0; // compute capability
};

struct EnvironmentInfo {
    std::string trainscope_version;
    std::string torch_version;
    std::string hostname;
    std::string os;
    std::string compiler;
    std::string cpu_model;
    int logical_cores = 0;
    std::vector<std::string> cpu_features; // of interest: avx2 avx512f avx512_bf16 amx_bf16 ...
    std::string blas;                      // "OpenBLAS (pthread)", "reference BLAS", "MKL", ...
    std::string blas_library;              // resolved path of the BLAS shared library in use
    bool reference_blas = false;
    bool onednn = false;
    std::string onednn_version;
    int usable_cores = 0; // CPUs this process may run on (its affinity), 0 unknown
    int intra_op_threads = 0;
    int inter_op_threads = 0;
    std::string threads_choice; // how the run chose intra_op_threads (ThreadChoice::reason)
    bool cuda_available = false;
    std::string cuda_version;
    std::string cudnn_version;
    std::vector<CudaDeviceInfo> cuda_devices;
    int64_t host_memory_total = 0;
    int64_t host_memory_available = 0;

    bool hasCpuFeature(const std::string& flag) const;
    // bf16 autocast on CPU is only worthwhile with native bf16 (AVX512-BF16/AMX).
    bool cpuHasNativeBf16() const;
};

} // namespace ts
