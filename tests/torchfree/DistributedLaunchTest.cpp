// The launcher variables (torchrun's names) read into DistributedLaunch.
#include <gtest/gtest.h>

#include <map>

#include "config/DistributedLaunch.h"

namespace ts {
namespace {

struct FakeEnvironment {
    std::map<std::string, std::string> values;
    EnvLookup lookup() const {
        return [this](const char* name) -> const char* {
            const auto it = values.find(name);
            return it == values.end() ? nullptr : it->second.c_str();
        };
    }
};

TEST(DistributedLaunch, NoWorldSizeMeansOneProcess) {
    FakeEnvironment env;
    std::vector<ConfigIssue> issues;
    EXPECT_FALSE(distributedLaunchFromEnvironment(env.lookup(), issues).has_value());
    EXPECT_TRUE(issues.empty());
}

TEST(DistributedLaunch, ReadsTorchrunsVariablesAndRoundTrips) {
    FakeEnvironment env{{{"WORLD_SIZE", "4"},
                         {"RANK", "3"},
                         {"LOCAL_RANK", "1"},
                         {"LOCAL_WORLD_SIZE", "2"},
                         {"MASTER_ADDR", "10.0.0.7"},
                         {"MASTER_PORT", "29500"},
                         {"TORCHELASTIC_USE_AGENT_STORE", "True"}}};
    std::vector<ConfigIssue> issues;
    const auto launch = distributedLaunchFromEnvironment(env.lookup(), issues);
    ASSERT_TRUE(launch.has_value());
    EXPECT_TRUE(issues.empty());
    EXPECT_TRUE(launch->enabled());
    EXPECT_EQ(launch->world_size, 4);
    EXPECT_EQ(launch->rank, 3);
    EXPECT_EQ(launch->local_rank, 1);
    EXPECT_EQ(launch->local_world_size, 2);
    EXPECT_EQ(launch->master_addr, "10.0.0.7");
    EXPECT_EQ(launch->master_port, 29500);
    EXPECT_TRUE(launch->store_hosted_by_launcher);

    // What our launcher sets reads back the same.
    FakeEnvironment again;
    for (const auto& variable : rankEnvironment(*launch)) {
        const auto eq = variable.find('=');
        again.values[variable.substr(0, eq)] = variable.substr(eq + 1);
    }
    const auto read = distributedLaunchFromEnvironment(again.lookup(), issues);
    ASSERT_TRUE(read.has_value());
    EXPECT_TRUE(issues.empty());
    EXPECT_EQ(read->rank, 3);
    EXPECT_EQ(read->master_port, 29500);
    EXPECT_EQ(read->timeout_s, launch->timeout_s);
}

TEST(DistributedLaunch, BadValuesAreNamed) {
    FakeEnvironment env{{{"WORLD_SIZE", "2"}, {"RANK", "2"}, {"MASTER_PORT", "http"}}};
    std::vector<ConfigIssue> issues;
    distributedLaunchFromEnvironment(env.lookup(), issues);
    ASSERT_EQ(issues.size(), 2u);
    EXPECT_EQ(issues[0].key, "RANK");
    EXPECT_NE(issues[0].message.find("below WORLD_SIZE"), std::string::npos);
    EXPECT_EQ(issues[1].key, "MASTER_PORT");
    EXPECT_EQ(issues[1].value, "http");

    FakeEnvironment missing{{{"WORLD_SIZE", "2"}}};
    issues.clear();
    distributedLaunchFromEnvironment(missing.lookup(), issues);
    ASSERT_EQ(issues.size(), 2u);
    EXPECT_EQ(issues[0].key, "RANK");
    EXPECT_EQ(issues[1].key, "MASTER_PORT");
}

} // namespace
} // namespace ts
