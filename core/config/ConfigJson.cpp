#include "config/ConfigJson.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/ConfigError.h"
#include "config/ConfigKeys.h"
#include "util/AtomicFile.h"
#include "util/Utf8.h"

namespace ts {
namespace {

using nlohmann::json;
using namespace config_keys;

std::string describeType(const json& value) {
    if (value.is_number_integer()) return "integer " + value.dump();
    if (value.is_number()) return "number " + value.dump();
    return std::string(value.type_name()) + " " + value.dump();
}

[[noreturn]] void typeError(const std::string& context, const std::string& key, const json& value,
                            const char* expected) {
    throw ConfigError(context,
                      {{key, value.dump(),
                        std::string("expected ") + expected + ", got " + describeType(value)}});
}

// Reads one JSON value into a member of the right type, naming the key on error.
template <typename Target>
void readValue(Target& target, const json& value, const std::string& key,
               const std::string& context) {
    if constexpr (std::is_same_v<Target, bool>) {
        if (!value.is_boolean()) typeError(context, key, value, "true or false");
        target = value.get<bool>();
    } else if constexpr (std::is_same_v<Target, std::string>) {
        if (!value.is_string()) typeError(context, key, value, "a string");
        target = value.get<std::string>();
    } else if constexpr (std::is_same_v<Target, double>) {
        if (!value.is_number()) typeError(context, key, value, "a number");
        target = value.get<double>();
    } else if constexpr (std::is_unsigned_v<Target>) {
        if (!value.is_number_unsigned()) typeError(context, key, value, "a non-negative integer");
        target = value.get<Target>();
    } else {
        if (!value.is_number_integer()) typeError(context, key, value, "an integer");
        const auto wide = value.get<int64_t>();
        if (wide < std::numeric_limits<Target>::min() || wide > std::numeric_limits<Target>::max())
            throw ConfigError(context, {{key, value.dump(), "value out of range"}});
        target = static_cast<Target>(wide);
    }
}

void readProfile(ProfileConfig& profile, const json& object, const std::string& context) {
    if (!object.is_object()) typeError(context, "profile", object, "an object");
    // Not a structured binding: C++17 lambdas (below) cannot capture those.
    for (const auto& item : object.items()) {
        const std::string& key = item.key();
        const json& value = item.value();
        const auto& specs = profileKeys();
        auto it = std::find_if(specs.begin(), specs.end(),
                               [&](const ProfileKeySpec& s) { return key == s.key; });
        if (it == specs.end())
            throw ConfigError(context, {{"profile." + key, value.dump(), "unknown key"}});
        std::visit(
            [&](auto member) { readValue(profile.*member, value, "profile." + key, context); },
            it->member);
    }
}

} // namespace

json configToJson(const ExperimentConfig& config) {
    json out = json::object();
    for (const auto& spec : topLevelKeys())
        std::visit([&](auto member) { out[spec.key] = config.*member; }, spec.member);
    json profile = json::object();
    for (const auto& spec : profileKeys())
        std::visit([&](auto member) { profile[spec.key] = config.profile.*member; }, spec.member);
    out["profile"] = profile;
    return out;
}

ExperimentConfig configFromJson(const json& object, const std::string& context) {
    if (!object.is_object())
        throw ConfigError(context + ": an experiment config must be a JSON object, got " +
                          std::string(object.type_name()));
    ExperimentConfig config;
    // Not a structured binding: C++17 lambdas (below) cannot capture those.
    for (const auto& item : object.items()) {
        const std::string& key = item.key();
        const json& value = item.value();
        if (key == "profile") {
            readProfile(config.profile, value, context);
            continue;
        }
        const auto& specs = topLevelKeys();
        auto it = std::find_if(specs.begin(), specs.end(),
                               [&](const KeySpec& s) { return key == s.key; });
        if (it == specs.end()) throw ConfigError(context, {{key, value.dump(), "unknown key"}});
        std::visit([&](auto member) { readValue(config.*member, value, key, context); },
                   it->member);
    }
    return config;
}

ExperimentConfig loadConfigFile(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw ConfigError(path.string() + ": cannot open config file");
    json object;
    try {
        object = json::parse(in);
    } catch (const json::exception& e) { // also out_of_range: 1e404
        throw ConfigError(path.string() + ": not valid JSON (" + e.what() + ")");
    }
    return configFromJson(object, path.string());
}

void saveConfigFile(const ExperimentConfig& config, const std::filesystem::path& path) {
    writeFileAtomically(path, configToJson(config).dump(2) + "\n");
}

void applyOverride(ExperimentConfig& config, const std::string& assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError("--set " + assignment + ": expected key=value");
    const std::string key = assignment.substr(0, eq);
    const std::string text = assignment.substr(eq + 1);
    // JSON holds UTF-8 text only: a string that is not UTF-8 would make every
    // later dump() of the config throw (error messages, run.json).
    if (!isUtf8(assignment))
        throw ConfigError("--set",
                          {{isUtf8(key) ? key : "(key not UTF-8)",
                            json(text).dump(-1, ' ', false, json::error_handler_t::replace),
                            "the assignment is not valid UTF-8 text"}});
    json value;
    try {
        value = json::parse(text);
    } catch (const json::exception&) {
        // Bare words are strings (--set model=resnet34); so is a number JSON
        // cannot hold (1e4040 is out_of_range, not parse_error), which the
        // key's type check then refuses by name.
        value = text;
    }
    // A string key expects a string even when the text parses as a number
    // (e.g. --set name=2024).
    json current = configToJson(config);
    const auto dot = key.find('.');
    const bool nested = dot != std::string::npos;
    json* slot = nested ? (current.contains(key.substr(0, dot)) &&
                                   current[key.substr(0, dot)].contains(key.substr(dot + 1))
                               ? &current[key.substr(0, dot)][key.substr(dot + 1)]
                               : nullptr)
                        : (current.contains(key) ? &current[key] : nullptr);
    if (!slot) throw ConfigError("--set", {{key, text, "unknown key"}});
    if (slot->is_string() && !value.is_string()) value = text;
    *slot = value;
    config = configFromJson(current, "--set " + assignment);
}

} // namespace ts
