// analyzeGpuTrace's Overview scope skips the operator tree on traces without
// kernels and the kernel tables always: what it does compute must equal the
// full analysis, on every trace of tests/data.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "TestTraces.h"
#include "report/GpuTraceReport.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

void expectSameMetrics(const GpuMetrics& a, const GpuMetrics& b, const std::string& file) {
    EXPECT_EQ(a.tc_used_ratio, b.tc_used_ratio) << file;
    EXPECT_EQ(a.tc_eligible_ops_kernel_ratio, b.tc_eligible_ops_kernel_ratio) << file;
    ASSERT_EQ(a.gpus.size(), b.gpus.size()) << file;
    for (size_t g = 0; g < a.gpus.size(); ++g) {
        EXPECT_EQ(a.gpus[g].id, b.gpus[g].id) << file;
        EXPECT_EQ(a.gpus[g].utilization, b.gpus[g].utilization) << file;
        EXPECT_EQ(a.gpus[g].sm_efficiency, b.gpus[g].sm_efficiency) << file;
        EXPECT_EQ(a.gpus[g].occupancy, b.gpus[g].occupancy) << file;
        EXPECT_EQ(a.gpus[g].tensor_core_ratio, b.gpus[g].tensor_core_ratio) << file;
    }
}

TEST(GpuAnalysisScope, TheOverviewScopeGivesTheFullAnalysisOverview) {
    int traces = 0, without_tree = 0;
    testing::forEachTestTrace(
        TRAINSCOPE_TEST_DATA_DIR, [&](const std::string& file, const Trace& trace) {
            for (const bool plugin : {false, true}) {
                GpuAnalysisOptions options;
                options.plugin_compatible = plugin;
                const GpuTraceAnalysis all = analyzeGpuTrace(trace, options, GpuAnalysisScope::All);
                const GpuTraceAnalysis overview =
                    analyzeGpuTrace(trace, options, GpuAnalysisScope::Overview);
                if (all.empty()) continue;
                ++traces;
                if (overview.tree.nodes.empty() && !all.tree.nodes.empty()) ++without_tree;
                EXPECT_EQ(gpuOverviewText(overview), gpuOverviewText(all)) << file;
                EXPECT_EQ(gpuOverviewJson(overview).dump(), gpuOverviewJson(all).dump()) << file;
                EXPECT_EQ(gpuOverviewCsv(overview), gpuOverviewCsv(all)) << file;
                expectSameMetrics(overview.metrics, all.metrics, file);
            }
        });
    EXPECT_GT(traces, 40);
    EXPECT_GT(without_tree, 4); // CPU-only traces really skipped the tree
}

} // namespace
} // namespace ts
