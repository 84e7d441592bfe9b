// analysis/KernelTypes.h: Holistic Trace Analysis' GPU kernel breakdown.
// Expected: HTA 0.6.1's get_gpu_kernel_breakdown() kernel_type_df (us, over
// the ranks) on these files, with its rounding (ActivityOptions::hta_rounding).
#include <map>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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

} // namespace
} // namespace ts
