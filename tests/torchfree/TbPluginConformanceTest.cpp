// The GPU views reproduce torch.profiler's TensorBoard plugin: every trace of
// the plugin's own tests (pytorch/kineto tb_plugin/test/test_profiler.py at
// 041e7ce, re-expressed in tests/data/tb_plugin/) against the numbers the
// plugin computes for it (tests/data/tb_plugin/expected.json: steps, per-step
// costs, operator and kernel tables, GPU metrics, Tensor-Core ratios,
// recommendations). Run in plugin-compatible mode: two of the fixtures hit
// the plugin's cost-split quirk that Trainscope's own rules fix (see
// TbPluginDifferencesTest).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/GpuTraceAnalysis.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

using json = nlohmann::json;

std::string dataDir() {
    return std::string(TRAINSCOPE_TEST_DATA_DIR) + "/tb_plugin/";
}

const json& expectations() {
    static const json all = [] {
        std::ifstream in(dataDir() + "expected.json");
        return json::parse(in);
    }();
    return all;
}

std::vector<std::string> fixtureNames() {
    std::vector<std::string> names;
    for (const auto& [name, value] : expectations().items())
        names.push_back(name);
    return names;
}

void expectOptional(const std::optional<double>& ours, const json& plugin, double tolerance,
                    const std::string& what) {
    if (plugin.is_null()) {
        EXPECT_FALSE(ours.has_value()) << what;
        return;
    }
    ASSERT_TRUE(ours.has_value()) << what;
    EXPECT_NEAR(*ours, plugin.get<double>(), tolerance) << what;
}

std::string dimsKey(const json& v) {
    if (v.is_null()) return "None";
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i].get<int>());
    return s + "]";
}

std::string countKey(const json& v) {
    return v.is_null() || v.get<int>() == 0 ? "0" : std::to_string(v.get<int>());
}

// The rule a plugin recommendation belongs to, by its opening words.
std::string ruleOf(const std::string& text) {
    if (text.rfind("This run has high time cost on input", 0) == 0) return "dataloader";
    if (text.rfind("This run has high time cost on communication", 0) == 0) return "communication";
    if (text.rfind("GPU", 0) == 0) return "gpu_utilization";
    if (text.rfind("Kernels with", 0) == 0) return "amp";
    if (text.rfind("It is recommended to", 0) == 0) return "ddp";
    if (text.rfind("Nccl", 0) == 0) return "nccl";
    return "memory";
}

class TbPluginFixture : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        expected_ = expectations()[GetParam()];
        trace_ = readChromeTraceFile(dataDir() + GetParam() + ".json");
        GpuAnalysisOptions options;
        options.plugin_compatible = true;
        analysis_ = analyzeGpuTrace(trace_, options);
    }
    json expected_;
    Trace trace_;
    GpuTraceAnalysis analysis_;
};

TEST_P(TbPluginFixture, OverviewStepsAndCosts) {
    const json& flags = expected_["has_runtime/kernel/memcpy_or_memset/communication"];
    const GpuOverview& o = analysis_.overview;
    EXPECT_EQ(o.has_runtime, flags[0].get<bool>());
    EXPECT_EQ(o.has_kernel, flags[1].get<bool>());
    EXPECT_EQ(o.has_memcpy_or_memset, flags[2].get<bool>());
    EXPECT_EQ(o.has_communication, flags[3].get<bool>());
    // The plugin's step without CPU ops has a negative length (its min/max
    // stay at +-inf); Trainscope spans the trace instead.
    if (GetParam() == "test_distributed_nccl_user_annotation_has_communication_0") return;
    const json& steps = expected_["steps"];
    ASSERT_EQ(o.steps.size(), steps.size());
    for (size_t s = 0; s < steps.size(); ++s) {
        EXPECT_EQ(o.steps[s].label, steps[s].get<std::string>());
        for (size_t r = 0; r < kGpuRoleCount; ++r)
            EXPECT_EQ(double(o.steps[s].cost_ns[r]) / 1000,
                      expected_["steps_costs"][s][r].get<double>())
                << "step " << s << " " << toString(GpuRole(r));
    }
}

TEST_P(TbPluginFixture, OperatorsByNameAndByShapes) {
    const DeviceOpTable by_name = analysis_.operators(trace_, DeviceOpGrouping::Name);
    const json& rows = expected_["ops_by_name"];
    ASSERT_EQ(by_name.rows.size(), rows.size());
    for (const json& r : rows) {
        const std::string name = r[0];
        auto it = std::find_if(by_name.rows.begin(), by_name.rows.end(),
                               [&](const DeviceOpRow& row) { return row.name == name; });
        ASSERT_NE(it, by_name.rows.end()) << name;
        EXPECT_EQ(it->calls, r[1].get<int64_t>()) << name;
        EXPECT_EQ(double(it->host_total_ns) / 1000, r[2].get<double>()) << name;
        EXPECT_EQ(double(it->host_self_ns) / 1000, r[3].get<double>()) << name;
        EXPECT_EQ(double(it->device_total_ns) / 1000, r[4].get<double>()) << name;
        EXPECT_EQ(double(it->device_self_ns) / 1000, r[5].get<double>()) << name;
        EXPECT_EQ(it->tc_eligible, r[6].get<bool>()) << name;
        EXPECT_NEAR(it->tcSelfRatio(), r[7].get<double>(), 1e-7) << name;
        EXPECT_NEAR(it->tcTotalRatio(), r[8].get<double>(), 1e-7) << name;
    }
    const DeviceOpTable by_shapes = analysis_.operators(trace_, DeviceOpGrouping::NameAndShapes);
    const json& shape_rows = expected_["ops_by_name_input"];
    ASSERT_EQ(by_shapes.rows.size(), shape_rows.size());
    for (const json& r : shape_rows) {
        auto it =
            std::find_if(by_shapes.rows.begin(), by_shapes.rows.end(), [&](const DeviceOpRow& row) {
                return row.name == r[0] && row.shapes == r[1];
            });
        ASSERT_NE(it, by_shapes.rows.end()) << r.dump();
        EXPECT_EQ(it->calls, r[2].get<int64_t>()) << r.dump();
    }
    // Sorted by device self time when there is device time, else host self.
    for (size_t i = 1; i < by_name.rows.size(); ++i)
        EXPECT_GE(by_name.by_device ? by_name.rows[i - 1].device_self_ns
                                    : by_name.rows[i - 1].host_self_ns,
                  by_name.by_device ? by_name.rows[i].device_self_ns
                                    : by_name.rows[i].host_self_ns);
}

TEST_P(TbPluginFixture, KernelsByNameAndByOperator) {
    const KernelTables& k = analysis_.kernels;
    const json& by_name = expected_.value("kernel_stat", json::array());
    ASSERT_EQ(k.by_name.size(), by_name.size());
    for (size_t i = 0; i < by_name.size(); ++i) {
        const json& r = by_name[i];
        // Same order (by total time; none of the fixtures has ties).
        const KernelRow& row = k.by_name[i];
        EXPECT_EQ(row.name, r[0].get<std::string>());
        EXPECT_EQ(row.tensor_cores, r[1].get<bool>());
        EXPECT_EQ(row.calls, r[2].get<int64_t>());
        EXPECT_EQ(double(row.total_ns) / 1000, r[3].get<double>());
        EXPECT_NEAR(row.meanNs() / 1000, r[4].get<double>(), 1e-9);
        EXPECT_EQ(double(row.max_ns) / 1000, r[5].get<double>());
        EXPECT_EQ(double(row.min_ns) / 1000, r[6].get<double>());
        EXPECT_NEAR(row.blocks_per_sm, r[7].get<double>(), 1e-6); // printed to 6 places
        EXPECT_NEAR(row.occupancy, r[8].get<double>(), 1e-6);
    }
    const json& by_op = expected_["kernels_by_name_op_props"];
    ASSERT_EQ(k.by_op.size(), by_op.size());
    for (const json& r : by_op) {
        auto it = std::find_if(k.by_op.begin(), k.by_op.end(), [&](const KernelOpRow& row) {
            return row.name == r[0] && row.op_name == r[1] && row.grid == dimsKey(r[2]) &&
                   row.block == dimsKey(r[3]) && row.registers == countKey(r[4]) &&
                   row.shared_memory == countKey(r[5]);
        });
        ASSERT_NE(it, k.by_op.end()) << r.dump();
        EXPECT_EQ(it->calls, r[6].get<int64_t>()) << r.dump();
        EXPECT_EQ(double(it->total_ns) / 1000, r[7].get<double>()) << r.dump();
        EXPECT_EQ(double(it->min_ns) / 1000, r[8].get<double>()) << r.dump();
        EXPECT_EQ(double(it->max_ns) / 1000, r[9].get<double>()) << r.dump();
        EXPECT_NEAR(it->blocks_per_sm, r[10].get<double>(), 1e-6) << r.dump();
        EXPECT_NEAR(it->occupancy, r[11].get<double>(), 1e-6) << r.dump();
        EXPECT_EQ(it->tensor_cores, r[12].get<bool>()) << r.dump();
        EXPECT_EQ(it->op_tc_eligible, r[13].get<bool>()) << r.dump();
    }
}

TEST_P(TbPluginFixture, GpuMetricsAndTensorCores) {
    const GpuMetrics& m = analysis_.metrics;
    const json gpus = expected_.value("gpu", json::object());
    ASSERT_EQ(m.gpus.size(), gpus.size());
    for (const GpuDeviceSummary& g : m.gpus) {
        const json& e = gpus[std::to_string(g.id)];
        EXPECT_NEAR(g.utilization, e["utilization"].get<double>(), 1e-7);
        expectOptional(g.sm_efficiency, e["sm_eff"], 1e-7, "sm efficiency");
        expectOptional(g.occupancy, e["occupancy"], 1e-6, "occupancy");
        expectOptional(g.tensor_core_ratio, e["tc_ratio"], 1e-7, "tensor cores");
    }
    EXPECT_NEAR(m.tc_eligible_ops_kernel_ratio,
                expected_["tc_eligible_ops_kernel_ratio"].get<double>(), 1e-7);
    expectOptional(m.tc_used_ratio, expected_["tc_used_ratio"], 1e-7, "tc used");
}

TEST_P(TbPluginFixture, RecommendationsCiteThePluginsNumbers) {
    if (GetParam() == "test_distributed_nccl_user_annotation_has_communication_0") return;
    const json& plugin = expected_["recommendations"];
    ASSERT_EQ(analysis_.recommendations.size(), plugin.size());
    for (size_t i = 0; i < plugin.size(); ++i) {
        const std::string text = plugin[i];
        EXPECT_EQ(analysis_.recommendations[i].rule, ruleOf(text)) << text;
        // The figure the plugin cites ("45.0%", "68%") is in ours too.
        const size_t pct = text.find('%');
        if (pct == std::string::npos || ruleOf(text) == "gpu_utilization") continue;
        size_t begin = text.rfind(' ', pct) + 1;
        const std::string figure = text.substr(begin, pct - begin + 1);
        EXPECT_NE(analysis_.recommendations[i].text.find(figure), std::string::npos)
            << figure << " in " << analysis_.recommendations[i].text;
    }
}

INSTANTIATE_TEST_SUITE_P(TbPlugin, TbPluginFixture, ::testing::ValuesIn(fixtureNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             return info.param;
                         });

// test_gpu_utilization's est. SM efficiency pieces (sm_efficiency_expected):
// min(Σ blocks per SM of the running kernels, 1) between consecutive edges.
// The accumulator is a double, so after the last kernel ends it holds a
// rounding residue: the plugin, too, emits (170, 200) with a value of ~0.
TEST(TbPluginSmEfficiency, PiecesOfOverlappingKernels) {
    const std::vector<SmEfficiencyPiece> kernels = {
        {130, 140, 0.5}, {135, 150, 0.6}, {150, 150, 0.3}, {145, 170, 0.3}, {200, 220, 10.5}};
    const std::vector<SmEfficiencyPiece> expected = {
        {130, 135, 0.5}, {135, 140, 1.0}, {140, 145, 0.6}, {145, 150, 0.9},
        {150, 170, 0.3}, {170, 200, 0.0}, {200, 220, 1.0}};
    const std::vector<SmEfficiencyPiece> pieces = smEfficiencyPieces(kernels);
    ASSERT_EQ(pieces.size(), expected.size());
    for (size_t i = 0; i < pieces.size(); ++i) {
        EXPECT_EQ(pieces[i].start, expected[i].start);
        EXPECT_EQ(pieces[i].end, expected[i].end);
        EXPECT_NEAR(pieces[i].value, expected[i].value, 1e-9);
    }
}

// test_gpu_utilization's explicit assertions: the kernel+op rows' weighted
// means and the GPU 1 figures (utilization 0.5, SM efficiency 41/120,
// occupancy 38.5/70).
TEST(TbPluginGpuMetrics, UpstreamAssertionsOfTestGpuUtilization) {
    const Trace t = readChromeTraceFile(dataDir() + "test_gpu_utilization.json");
    const GpuTraceAnalysis a = analyzeGpuTrace(t, GpuAnalysisOptions{true});
    ASSERT_EQ(a.metrics.gpus.size(), 1u);
    EXPECT_EQ(a.metrics.gpus[0].id, 1);
    EXPECT_NEAR(a.metrics.gpus[0].utilization, 0.5, 1e-12);
    EXPECT_NEAR(*a.metrics.gpus[0].sm_efficiency, 41.0 / 120, 1e-7);
    EXPECT_NEAR(*a.metrics.gpus[0].occupancy, 38.5 / 70, 1e-7);
    for (const KernelOpRow& r : a.kernels.by_op) {
        if (r.op_name == "aten::mm" && r.name.find("cunn") != std::string::npos) {
            EXPECT_NEAR(r.blocks_per_sm, (0.5 * 10 + 0.3 * 25) / (10 + 25), 1e-7);
            EXPECT_NEAR(r.occupancy, (0.6 * 10 + 1.0 * 25) / (10 + 25), 1e-7);
        }
        if (r.op_name == "aten::mat_mul" && r.name.find("cunn") != std::string::npos) {
            EXPECT_NEAR(r.blocks_per_sm, 10.5, 1e-6);
            EXPECT_NEAR(r.occupancy, 0.3, 1e-6);
        }
    }
    EXPECT_TRUE(a.kernels.has_blocks_per_sm);
    EXPECT_TRUE(a.kernels.has_occupancy);
}

} // namespace
} // namespace ts
