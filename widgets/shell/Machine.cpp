#include "shell/Machine.h"

#include "backend/TorchBackendLoader.h"

namespace ts::gui {

Machine Machine::probe() {
    const TorchBackend& backend = torchBackend();
    Machine machine;
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

std::string Machine::deviceLabel(const std::string& id) const {
    for (const DeviceOption& device : devices)
        if (device.id == id && !device.label.empty()) return device.label;
    return id;
}

} // namespace ts::gui
