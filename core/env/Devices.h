#pragma once
// Which devices and precisions this machine can run, with the reason when not.
#include <string>
#include <vector>

namespace ts {

struct DeviceOption {
    std::string id;    // "cpu", "cuda:0"
    std::string label; // "CPU (Intel Xeon ..., 2 threads)", "cuda:0 NVIDIA H100"
    bool available = false;
    std::string reason;                  // why not, when unavailable
    std::vector<std::string> precisions; // fp32, bf16, fp16 the device runs
};

// "cpu" always; "cuda" (shown disabled with the reason when absent).
std::vector<DeviceOption> listDevices();

// Empty when `device` can run `precision`, otherwise the reason it cannot.
std::string precisionSupportProblem(const std::string& device, const std::string& precision);

} // namespace ts
