// Experiment config JSON (loadConfigFile) and `--set key=value` overrides
// (applyOverride). Input: the config file, then optionally a NUL byte and
// one override per line, applied to the loaded config (the defaults when the
// file is refused). Bad input is a ConfigError naming the key; a config that
// loads must survive configToJson -> configFromJson unchanged.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "FuzzSupport.h"
#include "config/ConfigError.h"
#include "config/ConfigJson.h"

namespace {

void checkRoundTrip(const ts::ExperimentConfig& config) {
    const nlohmann::json once = ts::configToJson(config);
    try {
        const nlohmann::json twice = ts::configToJson(ts::configFromJson(once, "round trip"));
        if (once != twice)
            ts::fuzz::propertyBroken("config round trip changed it: " + once.dump() + " -> " +
                                     twice.dump());
    } catch (const ts::ConfigError& e) {
        ts::fuzz::propertyBroken(std::string("configToJson's output is refused: ") + e.what());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static ts::fuzz::ScratchDir scratch;
    const std::vector<std::string> parts = ts::fuzz::splitInput(data, size, '\0', 2);
    scratch.write("config.json", parts[0]);
    ts::ExperimentConfig config;
    try {
        config = ts::loadConfigFile(scratch.path() / "config.json");
        checkRoundTrip(config);
    } catch (const ts::ConfigError&) {
    }
    if (parts.size() < 2) return 0;
    std::istringstream lines(parts[1]);
    for (std::string line; std::getline(lines, line);) {
        try {
            ts::applyOverride(config, line);
            checkRoundTrip(config);
        } catch (const ts::ConfigError&) {
        }
    }
    return 0;
}
