#include "config/DistributedLaunch.h"

#include <charconv>
#include <cstring>

namespace ts {
namespace {

// The whole text as a decimal integer in [low, high], else nullopt.
std::optional<int> parseInt(const char* text, int low, int high) {
    if (text == nullptr || *text == '\0') return std::nullopt;
    int value = 0;
    const char* end = text + std::strlen(text);
    const auto [ptr, ec] = std::from_chars(text, end, value);
    if (ec != std::errc() || ptr != end || value < low || value > high) return std::nullopt;
    return value;
}

struct VariableReader {
    const EnvLookup& getenv;
    std::vector<ConfigIssue>& issues;

    // The variable as an integer in [low, high]; `fallback` when unset; an
    // issue naming the variable when set to anything else.
    int integer(const char* name, int low, int high, int fallback, const char* meaning) {
        const char* text = getenv(name);
        if (text == nullptr) return fallback;
        if (auto value = parseInt(text, low, high)) return *value;
        issues.push_back({name, text,
                          std::string("must be ") + meaning + " (" + std::to_string(low) + " to " +
                              std::to_string(high) + ")"});
        return fallback;
    }
};

} // namespace

std::optional<DistributedLaunch>
distributedLaunchFromEnvironment(const EnvLookup& getenv, std::vector<ConfigIssue>& issues) {
    if (getenv("WORLD_SIZE") == nullptr) return std::nullopt;
    VariableReader read{getenv, issues};
    DistributedLaunch launch;
    launch.world_size = read.integer("WORLD_SIZE", 1, 65536, 1, "the number of ranks");
    launch.rank = read.integer("RANK", 0, 65535, 0, "this process's rank");
    if (getenv("RANK") == nullptr && launch.world_size > 1)
        issues.push_back({"RANK", "", "is not set, but WORLD_SIZE is; a launcher sets both"});
    if (launch.rank >= launch.world_size)
        issues.push_back({"RANK", std::to_string(launch.rank),
                          "must be below WORLD_SIZE (" + std::to_string(launch.world_size) + ")"});
    launch.local_rank = read.integer("LOCAL_RANK", 0, 65535, launch.rank, "a local rank");
    launch.local_world_size =
        read.integer("LOCAL_WORLD_SIZE", 1, 65536, 1, "the number of ranks on this machine");
    if (const char* addr = getenv("MASTER_ADDR"); addr != nullptr && *addr != '\0')
        launch.master_addr = addr;
    launch.master_port = read.integer("MASTER_PORT", 1, 65535, 0, "a TCP port");
    if (getenv("MASTER_PORT") == nullptr && launch.world_size > 1)
        issues.push_back({"MASTER_PORT", "", "is not set; the ranks need it to meet"});
    if (const char* hosted = getenv("TORCHELASTIC_USE_AGENT_STORE"))
        launch.store_hosted_by_launcher = std::strcmp(hosted, "True") == 0;
    launch.timeout_s = read.integer("TRAINSCOPE_DIST_TIMEOUT_S", 1, 86400, 60, "seconds");
    return launch;
}

std::vector<std::string> rankEnvironment(const DistributedLaunch& rank) {
    return {
        "WORLD_SIZE=" + std::to_string(rank.world_size),
        "RANK=" + std::to_string(rank.rank),
        "LOCAL_RANK=" + std::to_string(rank.local_rank),
        "LOCAL_WORLD_SIZE=" + std::to_string(rank.local_world_size),
        "MASTER_ADDR=" + rank.master_addr,
        "MASTER_PORT=" + std::to_string(rank.master_port),
        std::string("TORCHELASTIC_USE_AGENT_STORE=") +
            (rank.store_hosted_by_launcher ? "True" : "False"),
        "TRAINSCOPE_DIST_TIMEOUT_S=" + std::to_string(int(rank.timeout_s)),
    };
}

} // namespace ts
