#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "config/ExperimentConfig.h"

namespace ts {

struct PresetInfo {
    std::string name;
    std::string description; // first line of the preset's "description" field
    bool needs_cuda = false;
};

// Presets live in resources/presets/*.json. They are compiled into the
// library (so an installed binary needs no data files); a folder given by the
// TRAINSCOPE_PRESETS_DIR environment variable is searched first.
std::vector<PresetInfo> listPresets();
ExperimentConfig loadPreset(const std::string& name); // throws ConfigError naming the preset

} // namespace ts
