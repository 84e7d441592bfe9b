// Where Trainscope's GPU views deliberately differ from torch.profiler's
// TensorBoard plugin (docs/gpu-traces.md), each against plugin-compatible
// mode on the same trace.
#include <gtest/gtest.h>

#include "TestPaths.h"
#include "analysis/GpuTraceAnalysis.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

GpuTraceAnalysis analyze(const Trace& t, bool plugin) {
    return analyzeGpuTrace(t, GpuAnalysisOptions{plugin});
}

int64_t costUs(const GpuTraceAnalysis& a, GpuRole role, size_t step = 0) {
    return a.overview.steps.at(step).cost_ns[size_t(role)] / 1000;
}

// The plugin restarts its cost split from the whole step once a role has
// covered everything: the DataPipe step (fully DataLoader) counts its 23 us
// again as Other, so its categories add up to twice its length.
TEST(TbPluginDifferences, FullyCoveredStepHasNoOther) {
    const Trace t = readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) +
                                        "/tb_plugin/test_datapipe.json");
    EXPECT_EQ(costUs(analyze(t, true), GpuRole::Other), 23);
    const GpuTraceAnalysis ours = analyze(t, false);
    EXPECT_EQ(costUs(ours, GpuRole::DataLoader), 23);
    EXPECT_EQ(costUs(ours, GpuRole::Other), 0);
    EXPECT_EQ(costUs(ours, GpuRole::Total), 23);
}

// Newer PyTorch names collectives c10d::* and record_param_comms and runs
// NCCL kernels (ncclDevKernel_*) that no recognised op launched: the plugin
// counts them as CPU Exec and Kernel.
TEST(TbPluginDifferences, NewerCollectiveNamesAreCommunication) {
    const Trace t = parseChromeTrace(R"({"traceEvents": [
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
        {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 10, "dur": 20,
         "args": {"External id": 7}},
        {"ph": "X", "cat": "cpu_op", "name": "c10d::allreduce_", "pid": 1, "tid": 1, "ts": 40, "dur": 10,
         "args": {"External id": 8}},
        {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0,
         "tid": "stream 20", "ts": 60, "dur": 30, "args": {"device": 0, "correlation": 99}}
    ]})",
                                     "comms.json");
    const GpuTraceAnalysis plugin = analyze(t, true);
    EXPECT_EQ(costUs(plugin, GpuRole::Communication), 0);
    EXPECT_EQ(costUs(plugin, GpuRole::CpuExec), 30);
    EXPECT_EQ(costUs(plugin, GpuRole::Kernel), 30);
    const GpuTraceAnalysis ours = analyze(t, false);
    EXPECT_EQ(costUs(ours, GpuRole::Communication), 60);
    EXPECT_EQ(costUs(ours, GpuRole::CpuExec), 0);
    EXPECT_EQ(costUs(ours, GpuRole::Kernel), 0);
    EXPECT_EQ(t.events[0].kind == EventKind::ProfilerStep, true);
    for (const TraceEvent& e : t.events) {
        if (t.nameOf(e) != "ProfilerStep#3") {
            EXPECT_EQ(e.kind, EventKind::Communication);
        }
    }
}

// cuda_driver calls (cuLaunchKernel, newer Kineto) launch kernels like
// runtime calls: Trainscope links the kernel to its op and counts the call
// as Runtime; the plugin drops the category, so the kernel is unattributed.
// A kernel without args.correlation is linked through its ac2g flow.
TEST(TbPluginDifferences, DriverCallsAndFlowsLinkKernels) {
    const Trace t = parseChromeTrace(R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 50,
         "args": {"External id": 5}},
        {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 10,
         "dur": 10, "args": {"External id": 5, "correlation": 40}},
        {"ph": "X", "cat": "kernel", "name": "sm80_xmma_gemm_f32f32", "pid": 0, "tid": "stream 7",
         "ts": 30, "dur": 40, "args": {"device": 0, "correlation": 40}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 25,
         "dur": 5, "args": {"External id": 5}},
        {"ph": "X", "cat": "kernel", "name": "elementwise", "pid": 0, "tid": "stream 7",
         "ts": 70, "dur": 10, "args": {"device": 0}},
        {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 41, "pid": 1, "tid": 1, "ts": 25},
        {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 41, "pid": 0, "tid": "stream 7", "ts": 70,
         "bp": "e"}
    ]})",
                                     "driver.json");
    EXPECT_EQ(t.kineto.ac2g_links, 1);
    // The plugin-compatible mode drops the driver call (the xmma kernel is
    // left unattributed); the flow link is the reader's and holds in both.
    const DeviceOpTable plugin = analyze(t, true).operators(t);
    ASSERT_EQ(plugin.rows.size(), 1u);
    EXPECT_EQ(plugin.rows[0].device_self_ns, 10000);
    const GpuTraceAnalysis ours = analyze(t, false);
    const DeviceOpTable table = ours.operators(t);
    ASSERT_EQ(table.rows.size(), 1u);
    EXPECT_EQ(table.rows[0].device_self_ns, 50000);
    EXPECT_EQ(table.rows[0].tc_self_ns, 40000); // xmma_gemm runs on Tensor Cores
    EXPECT_EQ(table.rows[0].host_self_ns, 35000);
    EXPECT_EQ(costUs(ours, GpuRole::Runtime), 15);
}

} // namespace
} // namespace ts
