// Text, CSV and JSON of the GPU views (trace-stats --view).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "report/GpuTraceReport.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

Trace allCategories() {
    return readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) +
                               "/tb_plugin/test_all_categories.json");
}

TEST(GpuTraceReport, OverviewJsonHasTheAgreedShape) {
    const Trace t = allCategories();
    const nlohmann::json j = gpuOverviewJson(analyzeGpuTrace(t));
    ASSERT_EQ(j["steps"].size(), 1u);
    const nlohmann::json& step = j["steps"][0];
    EXPECT_EQ(step["step"], "1");
    EXPECT_EQ(step["kernel_us"], 15.0);
    EXPECT_EQ(step["memcpy_us"], 10.0);
    EXPECT_EQ(step["memset_us"], 5.0);
    EXPECT_EQ(step["communication_us"], 0.0);
    EXPECT_EQ(step["runtime_us"], 30.0);
    EXPECT_EQ(step["dataloader_us"], 180.0);
    EXPECT_EQ(step["cpu_exec_us"], 35.0);
    EXPECT_EQ(step["other_us"], 125.0);
    EXPECT_EQ(step["total_us"], 400.0);
    EXPECT_EQ(step.size(), 10u);
    EXPECT_EQ(j["average"]["total_us"], 400.0);
    for (const char* key : {"name", "utilization_pct", "sm_efficiency_pct",
                            "achieved_occupancy_pct", "tensor_core_pct"})
        EXPECT_TRUE(j["gpu"].contains(key)) << key;
    EXPECT_DOUBLE_EQ(j["gpu"]["utilization_pct"].get<double>(), 3.75);
    EXPECT_TRUE(j["gpu"]["sm_efficiency_pct"].is_null());
    ASSERT_EQ(j["recommendations"].size(), 2u);
    EXPECT_EQ(j.size(), 4u);
}

TEST(GpuTraceReport, TextAndCsvOfTheViews) {
    const Trace t = allCategories();
    const GpuTraceAnalysis a = analyzeGpuTrace(t);
    const std::string overview = gpuOverviewText(a);
    EXPECT_NE(overview.find("DataLoader: 180.0 us (45.00%)"), std::string::npos) << overview;
    EXPECT_NE(overview.find("45.0% of the step time is in DataLoader"), std::string::npos);
    const std::string csv = gpuOverviewCsv(a);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "step,kernel_us,memcpy_us,memset_us,communication_us,runtime_us,dataloader_us,"
              "cpu_exec_us,other_us,total_us");
    const DeviceOpTable ops = a.operators(t);
    const std::string ops_text = deviceOpsText(ops);
    EXPECT_NE(ops_text.find("by device self time"), std::string::npos);
    EXPECT_EQ(ops.rows.front().name, "aten::nll_loss_backward");
    EXPECT_NE(deviceOpsCsv(ops).find("aten::nll_loss_backward,1,30,30,35,70,No"), std::string::npos)
        << deviceOpsCsv(ops);
    const std::string kernels = kernelsCsv(a.kernels, true);
    EXPECT_NE(kernels.find("aten::nll_loss_backward,None,None,0,0,No,No,1,15"), std::string::npos)
        << kernels;
    EXPECT_EQ(kernelsJson(a.kernels, false)["rows"].size(), 1u);
}

} // namespace
} // namespace ts
