// analyzeGpuTrace's Overview scope skips the operator tree on traces without
// kernels and the kernel tables always: what it does compute must equal the
// full analysis, on every trace of tests/data.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "ExpectSameGpuMetrics.h"
#include "TestPaths.h"
#include "TestTraces.h"
#include "report/GpuTraceReport.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

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
                testing::expectSameGpuMetrics(overview.metrics, all.metrics, file);
            }
        });
    EXPECT_GT(traces, 40);
    EXPECT_GT(without_tree, 4); // CPU-only traces really skipped the tree
}

} // namespace
} // namespace ts
