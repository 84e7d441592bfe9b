#include "config/ConfigError.h"

namespace ts {
namespace {
std::string joinIssues(const std::string& context, const std::vector<ConfigIssue>& issues) {
    std::string text = context.empty() ? std::string("invalid experiment config")
                                       : context + ": invalid experiment config";
    for (const auto& issue : issues) {
        text += "\n  " + issue.key;
        if (!issue.value.empty()) text += " = " + issue.value;
        text += ": " + issue.message;
    }
    return text;
}
} // namespace

ConfigError::ConfigError(const std::string& context, std::vector<ConfigIssue> issues)
    : std::runtime_error(joinIssues(context, issues)), issues_(std::move(issues)) {}

} // namespace ts
