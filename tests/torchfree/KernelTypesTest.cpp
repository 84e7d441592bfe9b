// analysis/KernelTypes.h: Holistic Trace Analysis' GPU kernel breakdown.
// Expected: HTA 0.6.1's get_gpu_kernel_breakdown() kernel_type_df (us, over
// the ranks) on these files, with its rounding (ActivityOptions::hta_rounding).
#include <cmath>
#include <map>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/KernelTypes.h"
#include "report/KernelTypeTables.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

std::map<std::string, int64_t> htaBreakdown(const std::vector<std::string>& files) {
    std::map<std::string, int64_t> us;
    for (const std::string& file : files) {
        const Trace trace = readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/" + file);
        ActivityOptions options;
        options.hta_rounding = true;
        for (const TypeOverlap& o :
             kernelTypeBreakdown(trace, collectDeviceActivity(trace, options)).overlaps)
            us[overlapLabel(o.types)] += o.ns / 1000;
    }
    return us;
}

TEST(KernelTypes, AsHta) {
    using M = std::map<std::string, int64_t>;
    EXPECT_EQ(htaBreakdown({"distributed_hta/rank-0.json.gz", "distributed_hta/rank-1.json.gz"}),
              (M{{"COMMUNICATION", 305584},
                 {"COMPUTATION", 185023},
                 {"COMPUTATION overlapping COMMUNICATION", 56747},
                 {"MEMORY", 2288},
                 {"COMMUNICATION overlapping MEMORY", 1011},
                 {"COMPUTATION overlapping MEMORY", 18},
                 {"COMPUTATION overlapping COMMUNICATION overlapping MEMORY", 12}}));
    EXPECT_EQ(htaBreakdown({"h100/resnet50_bs64_bf16.pt.trace.json.gz"}),
              (M{{"COMPUTATION", 57575}, {"MEMORY", 65}}));
    EXPECT_EQ(htaBreakdown({"hta/critical_path_alexnet.json.gz"}),
              (M{{"MEMORY", 55511}, {"COMPUTATION", 10630}}));
    EXPECT_EQ(htaBreakdown({"kineto_call_stacks.json"}), (M{{"COMPUTATION", 28}}));
}

TEST(KernelTypes, KernelsAndJson) {
    const Trace trace =
        readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/kineto_call_stacks.json");
    const KernelTypeBreakdown b = kernelTypeBreakdown(trace, collectDeviceActivity(trace));
    ASSERT_FALSE(b.kernels.empty());
    int64_t calls = 0;
    for (const KernelTypeRow& k : b.kernels)
        calls += k.count;
    EXPECT_EQ(calls, 2);
    const nlohmann::json j = kernelTypesJson({b});
    EXPECT_EQ(j["ranks"][0]["types"][0]["kernel_type"], "COMPUTATION");
    EXPECT_DOUBLE_EQ(j["ranks"][0]["types"][0]["pct"].get<double>(), 100);
    EXPECT_EQ(kernelsByTypeTable({b}).rows.size(), b.kernels.size());
}

// HTA's get_comm_comp_overlap(): the share of communication time that
// computation ran beside, per rank, rounded to two decimals: 11.81 and 20.05.
TEST(KernelTypes, CommunicationOverlapAsHta) {
    const double expected[] = {11.81, 20.05};
    for (int rank = 0; rank < 2; ++rank) {
        const Trace trace =
            readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/distributed_hta/rank-" +
                                std::to_string(rank) + ".json.gz");
        ActivityOptions options;
        options.hta_rounding = true;
        const KernelTypeBreakdown k =
            kernelTypeBreakdown(trace, collectDeviceActivity(trace, options));
        EXPECT_NEAR(100 * k.commCompOverlap(), expected[rank], 0.005) << rank;
        const nlohmann::json j = kernelTypesJson({k});
        EXPECT_NEAR(j["ranks"][0]["comp_comm_overlap_pctg"].get<double>(), expected[rank], 0.005);
    }
    // No communication: NaN, as HTA's (null in JSON).
    const Trace h100 = readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) +
                                           "/h100/resnet50_bs64_bf16.pt.trace.json.gz");
    const KernelTypeBreakdown none = kernelTypeBreakdown(h100, collectDeviceActivity(h100));
    EXPECT_TRUE(std::isnan(none.commCompOverlap()));
    EXPECT_TRUE(kernelTypesJson({none})["ranks"][0]["comp_comm_overlap_pctg"].is_null());
}

} // namespace
} // namespace ts
