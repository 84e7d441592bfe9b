#include "shell/Machine.h"

namespace ts::gui {

Machine Machine::probe() {
    Machine machine;
    machine.presets = listPresets();
    machine.devices = listDevices();
    machine.env = probeEnvironment();
    return machine;
}

std::string Machine::deviceLabel(const std::string& id) const {
    for (const DeviceOption& device : devices)
        if (device.id == id && !device.label.empty()) return device.label;
    return id;
}

} // namespace ts::gui
