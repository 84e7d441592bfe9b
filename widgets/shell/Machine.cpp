#include "shell/Machine.h"

#include "backend/TorchBackendLoader.h"

namespace ts::gui {

Machine Machine::probe() {
    const TorchBackendLoad load = torchBackendLoad();
    const TorchBackend& backend = *load.backend;
    Machine machine;
    machine.load = load;
    machine.features = backend.features();
    machine.presets = listPresets();
    machine.devices = backend.listDevices();
    machine.env = backend.probeEnvironment();
    machine.support = backend.deviceSupport();
    machine.probed = true;
    return machine;
}

Machine Machine::beforeLibTorch() {
    Machine machine;
    machine.presets = listPresets();
    DeviceOption cpu;
    cpu.id = "cpu";
    cpu.label = "CPU";
    cpu.available = true;
    cpu.precisions = {"fp32", "bf16", "fp16"};
    machine.devices = {cpu};
    machine.support = [](const std::string&, const std::string&) { return std::string(); };
    return machine;
}

std::string Machine::libTorchLabel() const {
    if (!probed) return {};
    const TorchFeatures& f = features;
    std::string text = "LibTorch " + f.torch_version + " (";
    if (f.cuda_version.empty()) return text + "CPU only)";
    text += "CUDA " + f.cuda_version + ", ";
    if (f.gpus > 0) return text + std::to_string(f.gpus) + (f.gpus == 1 ? " GPU)" : " GPUs)");
    // A driver too old is worth the label's room: the user can act on it.
    const bool old_driver = f.gpu_problem.find("older than the CUDA") != std::string::npos;
    return text + (old_driver ? "NVIDIA driver too old)" : "no GPU found)");
}

std::string Machine::libTorchDetails() const {
    if (!probed) return {};
    const TorchFeatures& f = features;
    const auto yesOr = [](bool yes, const std::string& why) {
        return yes ? std::string("yes") : "no: " + why;
    };
    std::string text = "Module: " +
                       (load.module.path.empty() ? std::string("linked into this program")
                                                 : load.module.path.string()) +
                       "\nWhy this one: " + load.why;
    if (!f.gpu_problem.empty()) text += "\nGPU: " + f.gpu_problem;
    text += "\nKineto (torch.profiler's recorder): " + yesOr(f.kineto, f.kineto_problem);
    text += "\nFused optimizer kernels: " + yesOr(f.fused_optimizer, f.fused_problem);
    text += "\nTorchScript archives: file format up to " + std::to_string(f.torchscript_max_format);
    for (const std::string& skipped : load.skipped)
        text += "\nNot loaded: " + skipped;
    return text;
}

std::string Machine::deviceLabel(const std::string& id) const {
    for (const DeviceOption& device : devices)
        if (device.id == id && !device.label.empty()) return device.label;
    return id;
}

} // namespace ts::gui
