#pragma once
// What the GUI needs to know about this machine: the presets, the devices
// and precisions it runs, and its environment. LibTorch answers the last
// two, so the window starts with what needs no LibTorch (beforeLibTorch) and
// takes the probe once the TorchBackend has loaded (tests pass a made-up or
// probed one).
#include <string>
#include <vector>

#include "backend/TorchBackend.h"
#include "backend/TorchBackendLoader.h"
#include "config/ExperimentConfig.h"
#include "config/Presets.h"
#include "env/Devices.h"
#include "records/EnvironmentInfo.h"

namespace ts::gui {

struct Machine {
    std::vector<PresetInfo> presets;
    std::vector<DeviceOption> devices;
    EnvironmentInfo env;
    // Which device runs which precision (config validation, the form).
    DeviceSupportCheck support;
    bool probed = false; // devices, env and support came from LibTorch
    // What the loaded LibTorch can do (the form offers that), which module
    // it came from and why that one.
    TorchFeatures features;
    TorchBackendLoad load;

    // Through the TorchBackend: waits for it to load. Throws what the loader
    // throws when it cannot.
    static Machine probe();
    // The presets and the CPU, every precision allowed until LibTorch says
    // otherwise (the run itself is validated with LibTorch's answer).
    static Machine beforeLibTorch();
    // "CPU (AMD EPYC, 2 threads)" for "cpu"; the id itself for devices not listed.
    std::string deviceLabel(const std::string& id) const;
    // "LibTorch 2.15.0 (CUDA 13.0, no GPU found)", "LibTorch 1.13.1 (CPU only)";
    // "" before LibTorch has loaded.
    std::string libTorchLabel() const;
    // The label's details: the module, why it, what Kineto, the fused
    // optimizer and TorchScript can do here, and the modules passed over.
    std::string libTorchDetails() const;
};

} // namespace ts::gui
