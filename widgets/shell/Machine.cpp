#include "shell/Machine.h"

namespace ts::gui {

Machine Machine::probe() {
    Machine machine;
    machine.presets = listPresets();
    machine.devices = listDevices();
    machine.env = probeEnvironment();
    return machine;
}

} // namespace ts::gui
