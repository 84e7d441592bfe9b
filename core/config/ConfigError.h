#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "config/ExperimentConfig.h"

namespace ts {

// Thrown for any bad experiment input. what() is a complete, user-facing
// sentence naming the file/key/value; issues() lists every problem found.
class ConfigError : public std::runtime_error {
public:
    explicit ConfigError(const std::string& message) : std::runtime_error(message) {}
    ConfigError(const std::string& context, std::vector<ConfigIssue> issues);
    const std::vector<ConfigIssue>& issues() const { return issues_; }

private:
    std::vector<ConfigIssue> issues_;
};

} // namespace ts
