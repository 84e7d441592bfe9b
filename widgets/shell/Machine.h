#pragma once
// What the GUI needs to know about this machine, probed once at start-up and
// passed to the panels (tests pass a made-up one).
#include <string>
#include <vector>

#include "config/Presets.h"
#include "env/Devices.h"
#include "env/Environment.h"

namespace ts::gui {

struct Machine {
    std::vector<PresetInfo> presets;
    std::vector<DeviceOption> devices;
    EnvironmentInfo env;

    static Machine probe();
    // "CPU (AMD EPYC, 2 threads)" for "cpu"; the id itself for devices not listed.
    std::string deviceLabel(const std::string& id) const;
};

} // namespace ts::gui
