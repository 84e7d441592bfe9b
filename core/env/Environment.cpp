#include "env/Environment.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <system_error>

#include <link.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <ATen/Parallel.h>
#include <torch/torch.h>
#include <torch/version.h>

#include "env/TorchCompat.h"
#include "util/CpuAffinity.h"
#include "util/HostName.h"

namespace ts {
namespace {

// First /proc/cpuinfo "model name" and the union of interesting flags.
void readCpuInfo(EnvironmentInfo& env) {
    static const std::set<std::string> interesting = {
        "sse4_2",   "avx",      "avx2",        "fma",         "avx512f",
        "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16", "avx512_fp16",
        "amx_bf16", "amx_int8", "amx_tile",    "avx_vnni"};
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    std::set<std::string> flags;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        const auto key = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
        const auto value = colon + 2 <= line.size() ? line.substr(colon + 2) : std::string();
        if (key == "model name" && env.cpu_model.empty()) env.cpu_model = value;
        if (key == "flags" && flags.empty()) {
            std::istringstream words(value);
            std::string flag;
            while (words >> flag)
                if (interesting.count(flag)) flags.insert(flag);
        }
    }
    env.cpu_features.assign(flags.begin(), flags.end());
    env.logical_cores = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
    env.usable_cores = usableCores();
}

void readMemInfo(EnvironmentInfo& env) {
    std::ifstream in("/proc/meminfo");
    std::string key;
    int64_t kb = 0;
    std::string unit;
    while (in >> key >> kb) {
        std::getline(in, unit);
        if (key == "MemTotal:") env.host_memory_total = kb * 1024;
        if (key == "MemAvailable:") env.host_memory_available = kb * 1024;
    }
}

// The BLAS actually loaded: Debian's libblas.so.3 is an alternatives link to
// OpenBLAS, BLIS or the reference implementation, so resolve loaded objects.
int collectLibrary(struct dl_phdr_info* info, size_t, void* data) {
    auto* libs = static_cast<std::vector<std::string>*>(data);
    if (info->dlpi_name && *info->dlpi_name) libs->emplace_back(info->dlpi_name);
    return 0;
}

void detectBlas(EnvironmentInfo& env) {
    std::vector<std::string> libs;
    dl_iterate_phdr(collectLibrary, &libs);
    for (const auto& lib : libs) {
        std::error_code ec;
        const auto real = std::filesystem::canonical(lib, ec).string();
        const auto& path = ec ? lib : real;
        if (path.find("mkl") != std::string::npos) {
            env.blas = "MKL";
        } else if (path.find("openblas") != std::string::npos) {
            env.blas = path.find("pthread") != std::string::npos  ? "OpenBLAS (pthread)"
                       : path.find("openmp") != std::string::npos ? "OpenBLAS (OpenMP)"
                                                                  : "OpenBLAS";
        } else if (path.find("blis") != std::string::npos) {
            env.blas = "BLIS";
        } else if (path.find("atlas") != std::string::npos) {
            env.blas = "ATLAS";
        } else if (path.find("/blas/libblas.so") != std::string::npos) {
            env.blas = "reference BLAS";
            env.reference_blas = true;
        } else {
            continue;
        }
        env.blas_library = path;
        if (!env.reference_blas) return;
    }
    // PyTorch's wheels link MKL into libtorch_cpu itself: no library to find.
    if (env.blas.empty() && at::hasMKL()) env.blas = "MKL (inside LibTorch)";
    if (env.blas.empty()) env.blas = "none detected (LibTorch's own kernels)";
}

void detectOneDnn(EnvironmentInfo& env) {
    env.onednn = at::hasMKLDNN();
    const std::string config = at::show_config();
    std::smatch match;
    if (std::regex_search(config, match, std::regex("oneDNN v([0-9.]+)")) ||
        std::regex_search(config, match, std::regex("MKL-DNN v([0-9.]+)")))
        env.onednn_version = match[1];
    // "CUDA Runtime 13.2" once CUDA has started; without a GPU only the build
    // settings' "CUDA_VERSION=13.2" says it.
    if (std::regex_search(config, match, std::regex("CUDA Runtime ([0-9.]+)")) ||
        std::regex_search(config, match, std::regex("CUDA_VERSION=([0-9.]+)")))
        env.cuda_version = match[1];
    env.cudnn_version = compat::cudnnVersion();
}

std::string osName() {
    std::ifstream in("/etc/os-release");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            auto value = line.substr(12);
            value.erase(std::remove(value.begin(), value.end(), '"'), value.end());
            return value;
        }
    struct utsname u {};
    return ::uname(&u) == 0 ? std::string(u.sysname) + " " + u.release : "unknown";
}

} // namespace

EnvironmentInfo probeEnvironment() {
    EnvironmentInfo env;
#ifdef TRAINSCOPE_VERSION
    env.trainscope_version = TRAINSCOPE_VERSION;
#endif
    env.torch_version = TORCH_VERSION;
    env.hostname = hostName();
    env.os = osName();
    env.compiler = std::string("g++ ") + __VERSION__;
    readCpuInfo(env);
    readMemInfo(env);
    detectBlas(env);
    detectOneDnn(env);
    env.intra_op_threads = at::get_num_threads();
    env.inter_op_threads = at::get_num_interop_threads();
    env.cuda_available = torch::cuda::is_available();
    if (env.cuda_available) {
        for (int i = 0; i < static_cast<int>(torch::cuda::device_count()); ++i) {
            const compat::CudaProperties p = compat::cudaProperties(i);
            CudaDeviceInfo device;
            device.index = i;
            device.name = p.name;
            device.total_memory = p.total_memory;
            device.major = p.major;
            device.minor = p.minor;
            env.cuda_devices.push_back(device);
        }
    }
    return env;
}

} // namespace ts
