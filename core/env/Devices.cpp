#include "env/Devices.h"

#include <cstdio>

#include <torch/torch.h>

#include "config/ThreadChoice.h"
#include "env/Environment.h"
#include "env/TorchCompat.h"

namespace ts {
namespace {

int cudaIndex(const std::string& device) {
    const auto colon = device.find(':');
    return colon == std::string::npos ? 0 : std::stoi(device.substr(colon + 1));
}

} // namespace

std::vector<DeviceOption> listDevices() {
    std::vector<DeviceOption> out;
    const auto env = probeEnvironment();
    DeviceOption cpu;
    cpu.id = "cpu";
    cpu.label = "CPU (" + (env.cpu_model.empty() ? std::string("unknown") : env.cpu_model) + ", " +
                std::to_string(chooseIntraOpThreads(0, 0, env.usable_cores).threads) + " threads)";
    cpu.available = true;
    cpu.precisions = {"fp32", "bf16"};
    out.push_back(cpu);
    if (!env.cuda_available) {
        DeviceOption cuda;
        cuda.id = "cuda";
        cuda.label = "CUDA";
        cuda.reason = compat::cudaBuilt()
                          ? "no CUDA device found"
                          : "this LibTorch build has no CUDA support (" + env.torch_version + ")";
        out.push_back(cuda);
        return out;
    }
    for (const auto& device : env.cuda_devices) {
        DeviceOption cuda;
        cuda.id = "cuda:" + std::to_string(device.index);
        // The GUI's device picker shows the label alone: it starts with the id.
        char memory[32];
        std::snprintf(memory, sizeof(memory), "%.1f GiB", double(device.total_memory) / (1 << 30));
        cuda.label = cuda.id + " " + device.name + " (compute " + std::to_string(device.major) +
                     "." + std::to_string(device.minor) + ", " + memory + ")";
        cuda.available = true;
        cuda.precisions = {"fp32", "fp16"};
        if (compat::cudaSupportsBf16(device.index)) cuda.precisions.push_back("bf16");
        out.push_back(cuda);
    }
    return out;
}

std::string precisionSupportProblem(const std::string& device, const std::string& precision) {
    const bool cuda = device.rfind("cuda", 0) == 0;
    if (cuda) {
        if (!torch::cuda::is_available())
            return compat::cudaBuilt() ? "no CUDA device found"
                                       : "this LibTorch build has no CUDA support";
        const int index = cudaIndex(device);
        if (index >= static_cast<int>(torch::cuda::device_count()))
            return "there is no " + device + " (found " +
                   std::to_string(torch::cuda::device_count()) + " CUDA devices)";
        if (precision == "bf16" && !compat::cudaSupportsBf16(index))
            return "bf16 needs a CUDA device of compute capability 8.0 or newer";
        return {};
    }
    if (precision == "fp16")
        return "fp16 mixed precision needs a CUDA device (its loss scaler ops exist only for "
               "CUDA); use bf16 on CPU";
    return {};
}

} // namespace ts
