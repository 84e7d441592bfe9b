#include "gui/CudaDriver.h"

#include <cstdlib>

#include <dlfcn.h>

namespace ts::gui {
namespace {

using CuInit = int (*)(unsigned);
constexpr int kCudaErrorNoDevice = 100; // CUDA_ERROR_NO_DEVICE
using CuDriverGetVersion = int (*)(int*);

// 13000 -> "13.0", as cuDriverGetVersion numbers them.
std::string cudaText(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

} // namespace

std::string cudaDriverProblem(const std::string& cuda_version) {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver) return "no NVIDIA driver (libcuda.so.1 not found)";
    auto init = reinterpret_cast<CuInit>(dlsym(driver, "cuInit"));
    auto version = reinterpret_cast<CuDriverGetVersion>(dlsym(driver, "cuDriverGetVersion"));
    std::string problem;
    int driver_version = 0;
    if (!init || !version) {
        problem = "libcuda.so.1 is not an NVIDIA driver library";
    } else if (version(&driver_version) == 0 && !cuda_version.empty() &&
               driver_version / 1000 < std::atoi(cuda_version.c_str())) {
        // CUDA runs on older drivers of its own major version, not of an older one.
        problem = "the NVIDIA driver supports CUDA " + cudaText(driver_version) +
                  ", older than the CUDA " + cuda_version + " LibTorch was built with";
    } else if (const int code = init(0); code == kCudaErrorNoDevice) {
        problem = "no CUDA device visible to this process (CUDA_VISIBLE_DEVICES?)";
    } else if (code != 0) {
        problem = "the NVIDIA driver does not start (cuInit error " + std::to_string(code) + ")";
    }
    // The driver stays loaded: LibTorch opens it again and unloading a driver
    // library that has started is unsafe.
    return problem;
}

} // namespace ts::gui
