// `trace-diff A B`: the Diff view of two traces in three formats, run
// directories as inputs, and the inputs and options it refuses (exit 2,
// naming the path or option). The figures themselves are checked in
// tests/torchfree/TraceDiffTest.cpp on the same fixtures.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ModelTestSupport.h"
#include "TestPaths.h"
#include "inspect/TraceDiffCommand.h"

namespace ts {
namespace {

std::string dataFile(const std::string& name) {
    return std::string(TRAINSCOPE_TEST_DATA_DIR) + "/" + name;
}

class TraceDiffCommand : public ::testing::Test {
protected:
    void SetUp() override {
        options_.a = dataFile("diff/steps_a.json");
        options_.b = dataFile("diff/steps_b.json");
    }

    int run() {
        out_.str("");
        err_.str("");
        return runTraceDiff(options_, out_, err_);
    }

    TraceDiffCommandOptions options_;
    std::ostringstream out_, err_;
};

TEST_F(TraceDiffCommand, PrintsTheSummaryCategoriesAndChangedRows) {
    ASSERT_EQ(run(), 0) << err_.str();
    const std::string text = out_.str();
    EXPECT_NE(text.find("step time: 1000.0 us -> 800.0 us (-20.0%)"), std::string::npos) << text;
    EXPECT_NE(text.find("DataLoader"), std::string::npos) << text;
    EXPECT_NE(text.find("aten::conv2d"), std::string::npos) << text;
    EXPECT_NE(text.find("relu_kernel"), std::string::npos) << text;
    EXPECT_TRUE(err_.str().empty());
}

TEST_F(TraceDiffCommand, CsvAndJsonAreFull) {
    options_.format = "csv";
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_NE(out_.str().find("aten::zero_,unchanged,"), std::string::npos) << out_.str();
    options_.format = "json";
    options_.step_a = "1";
    ASSERT_EQ(run(), 0) << err_.str();
    const auto j = nlohmann::json::parse(out_.str());
    EXPECT_EQ(j["operators"].size(), 6u);
    EXPECT_EQ(j["alignment"]["a"]["label"], "2");
    EXPECT_EQ(j["alignment"]["b"]["index"], 0);
}

TEST_F(TraceDiffCommand, ReadsRunDirectories) {
    const auto dir = test::freshTempDir("trace_diff");
    std::filesystem::copy_file(options_.b, dir / "trace.json");
    options_.b = dir.string();
    EXPECT_EQ(run(), 0) << err_.str();
    options_.b = (dir / "run.json").string(); // the trace.json beside it
    std::ofstream(dir / "run.json") << "{}";
    EXPECT_EQ(run(), 0) << err_.str();
    std::filesystem::remove_all(dir);
}

TEST_F(TraceDiffCommand, RefusesBadInputNamingIt) {
    options_.b = "/no/such/trace.json";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("/no/such/trace.json"), std::string::npos) << err_.str();
    SetUp();
    options_.step_b = "9";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("step 9 is out of range"), std::string::npos) << err_.str();
    options_.step_b = "x";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("--step-b"), std::string::npos) << err_.str();
    options_.step_b.clear();
    options_.a = dataFile("tb_plugin/test_operator_relation_a.json");
    options_.step_a = "0";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("marks no steps"), std::string::npos) << err_.str();
    SetUp();
    options_.step_a.clear();
    options_.format = "xml";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("--format"), std::string::npos) << err_.str();
}

} // namespace
} // namespace ts
