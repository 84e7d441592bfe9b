#pragma once
// Binds every config key to its struct member, once. JSON I/O, overrides,
// validation messages and the GUI's key lists are all driven by this table, so
// a new key is added in exactly one place.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "config/ExperimentConfig.h"

namespace ts::config_keys {

using MemberRef = std::variant<std::string ExperimentConfig::*, int ExperimentConfig::*,
                               int64_t ExperimentConfig::*, uint64_t ExperimentConfig::*,
                               double ExperimentConfig::*, bool ExperimentConfig::*>;
using ProfileRef = std::variant<int ProfileConfig::*, int64_t ProfileConfig::*,
                                bool ProfileConfig::*, std::string ProfileConfig::*>;

struct KeySpec {
    const char* key;
    MemberRef member;
    std::vector<std::string> allowed; // enumerated values, empty = free
    const char* help;
};

struct ProfileKeySpec {
    const char* key; // without the "profile." prefix
    ProfileRef member;
    const char* help;
    std::vector<std::string> allowed = {}; // enumerated values, empty = free
};

const std::vector<KeySpec>& topLevelKeys();
const std::vector<ProfileKeySpec>& profileKeys();

} // namespace ts::config_keys
