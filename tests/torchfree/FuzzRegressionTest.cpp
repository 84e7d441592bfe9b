// Inputs the fuzz targets (fuzz/, docs/reliability.md "Fuzzing") found to
// crash a reader, kept as tests: each must now be refused with the reader's
// own exception, whose message names what is wrong. The minimized inputs
// are also in tests/data/fuzz_regressions/ and in the targets' seed corpora.
#include <gtest/gtest.h>

#include <string>

#include "config/ConfigError.h"
#include "config/ConfigJson.h"

namespace ts {
namespace {

using namespace std::string_literals;

// fuzz_config: `--set lr=<0xff>`. The value did not parse as JSON, so it
// was kept as a string that is not UTF-8, and the type error's message
// (which dumps the value as JSON) threw nlohmann's type_error instead.
TEST(FuzzRegression, SetValueThatIsNotUtf8IsAConfigError) {
    ExperimentConfig config;
    for (const std::string assignment : {"lr=\xff"s, "name=caf\xe9"s, "\xff=1"s}) {
        try {
            applyOverride(config, assignment);
            FAIL() << "accepted " << assignment;
        } catch (const ConfigError& e) {
            EXPECT_NE(std::string(e.what()).find("not valid UTF-8"), std::string::npos) << e.what();
        }
    }
    // Valid UTF-8 is still taken as it is.
    applyOverride(config, "name=caf\xc3\xa9");
    EXPECT_EQ(config.name, "caf\xc3\xa9");
}

// fuzz_config: `--set batch_size=1e4040`. nlohmann parses the number and
// throws out_of_range (not parse_error), which escaped applyOverride.
TEST(FuzzRegression, SetNumberTooLargeForJsonIsAConfigError) {
    ExperimentConfig config;
    try {
        applyOverride(config, "batch_size=1e4040");
        FAIL() << "accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("batch_size"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace ts
