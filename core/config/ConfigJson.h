#pragma once
// JSON (de)serialisation of ExperimentConfig. Unknown keys and wrong types are
// errors that name the key; values are then checked with validateConfig().
#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "config/ExperimentConfig.h"

namespace ts {

nlohmann::json configToJson(const ExperimentConfig& config);
// `context` names the origin (a file path, "--set", "preset quickstart") in errors.
ExperimentConfig configFromJson(const nlohmann::json& json, const std::string& context);
ExperimentConfig loadConfigFile(const std::filesystem::path& path);
void saveConfigFile(const ExperimentConfig& config, const std::filesystem::path& path);

// Applies one "key=value" override (dotted keys for nested ones). The value is
// parsed as JSON when it parses, otherwise taken as a string.
void applyOverride(ExperimentConfig& config, const std::string& assignment);

} // namespace ts
