// analysis/LaunchStats.h: Holistic Trace Analysis' kernel launch statistics.
// Expected figures: HTA 0.6.1's get_cuda_kernel_launch_stats(runtime_cutoff=50,
// launch_delay_cutoff=100) on these files (its calls only, its rounding:
// LaunchStatOptions::hta_calls_only, ActivityOptions::hta_rounding), summed per
// rank; the outlier counts by HTA's rules on its table.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/LaunchStats.h"
#include "report/LaunchTables.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

Trace load(const std::string& name) {
    return readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/" + name);
}

LaunchStats htaStats(const Trace& trace) {
    ActivityOptions activity;
    activity.hta_rounding = true;
    LaunchStatOptions options;
    options.hta_calls_only = true;
    return launchStats(trace, collectDeviceActivity(trace, activity), options);
}

struct HtaLaunches {
    const char* file;
    size_t launches;
    int64_t cpu_us, gpu_us, delay_us, short_kernels, slow_calls, long_delays;
};

TEST(LaunchStats, AsHta) {
    const HtaLaunches expected[] = {
        {"kineto_call_stacks.json", 2, 15, 28, 20, 0, 0, 0},
        {"distributed_hta/rank-0.json.gz", 602, 5109, 302241, 9880122, 140, 0, 469},
        {"distributed_hta/rank-1.json.gz", 577, 4988, 306242, 9761662, 140, 0, 442},
        {"h100/resnet50_bs64_bf16.pt.trace.json.gz", 1867, 17158, 52104, 459273, 909, 8, 395},
        {"h100/gpt_decoder_bf16.pt.trace.json.gz", 961, 10344, 21752, 90002, 455, 9, 125},
        {"hta/critical_path_alexnet.json.gz", 98, 3113616, 66203, 39283, 23, 11, 43},
        {"hta/ns_resolution_trace.json.gz", 4876, 192088, 374521, 322052817, 2173, 663, 4713},
    };
    for (const HtaLaunches& e : expected) {
        const LaunchStats s = htaStats(load(e.file));
        EXPECT_EQ(s.launches.size(), e.launches) << e.file;
        EXPECT_EQ(s.cpu.total / 1000, e.cpu_us) << e.file;
        EXPECT_EQ(s.gpu.total / 1000, e.gpu_us) << e.file;
        EXPECT_EQ(s.delay.total / 1000, e.delay_us) << e.file;
        EXPECT_EQ(s.outliers[size_t(LaunchOutlier::ShortKernel)], e.short_kernels) << e.file;
        EXPECT_EQ(s.outliers[size_t(LaunchOutlier::SlowRuntime)], e.slow_calls) << e.file;
        EXPECT_EQ(s.outliers[size_t(LaunchOutlier::LongDelay)], e.long_delays) << e.file;
    }
}

// Trainscope pairs the driver's launches too: the H100 GPT decoder's 262
// cuLaunchKernelEx kernels, which HTA leaves out.
TEST(LaunchStats, DriverLaunchesCount) {
    const Trace trace = load("h100/gpt_decoder_bf16.pt.trace.json.gz");
    const LaunchStats all = launchStats(trace, collectDeviceActivity(trace));
    EXPECT_GT(all.launches.size(), htaStats(trace).launches.size());
    LaunchStatOptions tight;
    tight.launch_delay_cutoff_ns = 0;
    const LaunchStats every = launchStats(trace, collectDeviceActivity(trace), tight);
    EXPECT_GE(every.outliers[size_t(LaunchOutlier::LongDelay)],
              all.outliers[size_t(LaunchOutlier::LongDelay)]);
}

TEST(LaunchTables, JsonAndTables) {
    const Trace trace = load("kineto_call_stacks.json");
    const std::vector<LaunchStats> ranks{launchStats(trace, collectDeviceActivity(trace))};
    const std::vector<LaunchNames> names{launchNames(trace, ranks[0])};
    const nlohmann::json j = launchesJson(ranks, names, 0);
    EXPECT_DOUBLE_EQ(j["runtime_cutoff_us"].get<double>(), 50);
    const nlohmann::json& r = j["ranks"][0];
    EXPECT_EQ(r["launches"], 2);
    EXPECT_DOUBLE_EQ(r["cpu_duration_us"]["total"].get<double>(), 15);
    ASSERT_EQ(r["launch_list"].size(), 2u);
    EXPECT_EQ(r["launch_list"][0]["runtime"], "cudaLaunchKernel");
    EXPECT_DOUBLE_EQ(r["launch_list"][0]["launch_delay_us"].get<double>(), 5);
    EXPECT_EQ(launchesJson(ranks, names, 1)["ranks"][0]["launch_list"].size(), 1u);
    EXPECT_EQ(launchSummaryTable(ranks).rows.size(), 3u);
    EXPECT_EQ(launchOutlierTable(ranks).rows.size(), 3u);
    EXPECT_TRUE(outlierLaunchTable(ranks, names, 0).rows.empty()); // no outliers here
    // Every launch delayed past a cutoff of 0: each row names its call and
    // kernel as the trace does, with the work's start.
    LaunchStatOptions tight;
    tight.launch_delay_cutoff_ns = 0;
    const std::vector<LaunchStats> late{launchStats(trace, collectDeviceActivity(trace), tight)};
    const table::TableSpec rows = outlierLaunchTable(late, {launchNames(trace, late[0])}, 0);
    ASSERT_FALSE(rows.rows.empty());
    for (size_t i = 0; i < rows.rows.size(); ++i) {
        const TraceEvent work = trace.events[size_t(rows.row_events[i])];
        EXPECT_EQ(rows.rows[i].back().text, trace.nameOf(work));
        EXPECT_EQ(rows.rows[i][rows.rows[i].size() - 2].text, "cudaLaunchKernel");
    }
}

} // namespace
} // namespace ts
