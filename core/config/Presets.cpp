#include "config/Presets.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/ConfigError.h"
#include "config/ConfigJson.h"

namespace ts {

const std::map<std::string, std::string>& embeddedPresets(); // generated at build time

namespace {

// A preset file: {"description": "...", "needs_cuda": false, "config": {...}}.
struct PresetText {
    std::string origin;
    std::string text;
};

std::map<std::string, PresetText> collectPresets() {
    std::map<std::string, PresetText> presets;
    for (const auto& [name, text] : embeddedPresets())
        presets[name] = {"embedded preset " + name, text};
    if (const char* dir = std::getenv("TRAINSCOPE_PRESETS_DIR")) {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            if (entry.path().extension() != ".json") continue;
            std::ifstream in(entry.path());
            std::stringstream buffer;
            buffer << in.rdbuf();
            presets[entry.path().stem().string()] = {entry.path().string(), buffer.str()};
        }
    }
    return presets;
}

nlohmann::json parsePreset(const PresetText& preset) {
    try {
        auto json = nlohmann::json::parse(preset.text);
        if (!json.is_object() || !json.contains("config"))
            throw ConfigError(preset.origin + ": a preset needs a \"config\" object");
        return json;
    } catch (const nlohmann::json::exception& e) { // also out_of_range: 1e404
        throw ConfigError(preset.origin + ": not valid JSON (" + e.what() + ")");
    }
}

} // namespace

std::vector<PresetInfo> listPresets() {
    std::vector<PresetInfo> out;
    for (const auto& [name, text] : collectPresets()) {
        const auto json = parsePreset(text);
        PresetInfo info;
        info.name = name;
        info.description = json.value("description", "");
        info.needs_cuda = json.value("needs_cuda", false);
        out.push_back(info);
    }
    return out;
}

ExperimentConfig loadPreset(const std::string& name) {
    const auto presets = collectPresets();
    auto it = presets.find(name);
    if (it == presets.end()) {
        std::string names;
        for (const auto& [n, _] : presets)
            names += (names.empty() ? "" : ", ") + n;
        throw ConfigError("unknown preset \"" + name + "\"; available: " + names);
    }
    return configFromJson(parsePreset(it->second)["config"], it->second.origin);
}

} // namespace ts
