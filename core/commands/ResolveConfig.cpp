#include "commands/Commands.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "config/ConfigError.h"
#include "config/ConfigJson.h"
#include "config/Presets.h"
#include "env/ValidateConfig.h"

namespace ts {

ExperimentConfig resolveConfig(const ConfigSource& source) {
    ExperimentConfig config;
    if (!source.preset.empty())
        config = loadPreset(source.preset);
    else if (source.config_file.empty())
        config = loadPreset("quickstart");
    if (!source.config_file.empty()) {
        // A file given with a preset overrides only the keys it names.
        auto merged = configToJson(config);
        std::ifstream in(source.config_file);
        if (!in) throw ConfigError(source.config_file + ": cannot open config file");
        nlohmann::json file;
        try {
            file = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& e) { // also out_of_range: 1e404
            throw ConfigError(source.config_file + ": not valid JSON (" + e.what() + ")");
        }
        if (!file.is_object())
            throw ConfigError(source.config_file + ": an experiment config must be a JSON object");
        for (const auto& [key, value] : file.items()) {
            if (key == "profile" && value.is_object())
                for (const auto& [k, v] : value.items())
                    merged["profile"][k] = v;
            else
                merged[key] = value;
        }
        config = configFromJson(merged, source.config_file);
    }
    for (const auto& assignment : source.overrides)
        applyOverride(config, assignment);
    const auto issues = validateConfig(config);
    if (!issues.empty()) throw ConfigError("experiment \"" + config.name + "\"", issues);
    return config;
}

} // namespace ts
