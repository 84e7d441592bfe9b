// Two traces recorded with PyTorch 2.11 (torch.profiler, CUDA 13) on an H100:
// a GPT decoder and ResNet-50, bf16 autocast, 3 active steps, with shapes,
// memory, stacks and modules (tests/data/h100/README.md). The expected figures
// were computed from the JSON by a separate Python script on that machine.
#include <gtest/gtest.h>

#include "analysis/GpuTraceAnalysis.h"
#include "analysis/TensorCores.h"
#include "trace/ChromeTraceReader.h"

#include "OperatorStacks.h"
#include "TestPaths.h"

namespace ts {
namespace {

Trace readH100(const std::string& name) {
    return readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/h100/" + name);
}

int64_t kernelCalls(const KernelTables& k) {
    int64_t calls = 0;
    for (const KernelRow& r : k.by_name)
        calls += r.calls;
    return calls;
}

int64_t kernelNs(const KernelTables& k) {
    int64_t ns = 0;
    for (const KernelRow& r : k.by_name)
        ns += r.total_ns;
    return ns;
}

// PyTorch 2.x repeats each ProfilerStep#N range as a gpu_user_annotation on
// the GPU stream; it made every step count twice (5 steps, every other one
// empty) before the reader took steps from the host only.
TEST(H100Trace, StepsAreTheHostsOnlyAndHoldTheirKernels) {
    const Trace t = readH100("gpt_decoder_bf16.pt.trace.json.gz");
    ASSERT_EQ(t.steps.size(), 3u);
    const GpuTraceAnalysis a = analyzeGpuTrace(t, GpuAnalysisOptions{false});
    ASSERT_EQ(a.overview.steps.size(), 3u);
    const int64_t kernel_us[] = {18414, 18469, 18464}; // Python: 18414.437, 18469.775, 18464.072
    for (size_t s = 0; s < 3; ++s) {
        EXPECT_EQ(a.overview.steps[s].label, std::to_string(s + 2));
        EXPECT_EQ(a.overview.steps[s].cost_ns[size_t(GpuRole::Kernel)] / 1000, kernel_us[s]);
    }
    EXPECT_EQ(kernelCalls(a.kernels), 1581);
    EXPECT_EQ(kernelNs(a.kernels) / 1000, 55348); // Python: 55348.284 us
}

TEST(H100Trace, ResNetStepsAndKernels) {
    const Trace t = readH100("resnet50_bs64_bf16.pt.trace.json.gz");
    EXPECT_EQ(t.steps.size(), 3u);
    const GpuTraceAnalysis a = analyzeGpuTrace(t, GpuAnalysisOptions{false});
    EXPECT_EQ(a.overview.steps.size(), 3u);
    EXPECT_EQ(kernelCalls(a.kernels), 2858);
    EXPECT_EQ(kernelNs(a.kernels) / 1000, 91537); // Python: 91537.998 us
}

// Hopper's GEMM, convolution and attention kernels (nvjet_sm90_*,
// sm90_xmma_*, *_wgmma_*) are Tensor Core kernels; the plugin's list knows
// none of them and still says 0% (plugin-compatible mode keeps that).
TEST(H100Trace, HopperKernelsRunOnTensorCores) {
    EXPECT_TRUE(isTensorCoreKernel("nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_NNT", false));
    EXPECT_TRUE(isTensorCoreKernel(
        "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64",
        false));
    EXPECT_TRUE(isTensorCoreKernel("cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_"
                                   "knob_26_64x64x64_1x4x1_cga1x1x1_kernel0_0",
                                   false));
    EXPECT_FALSE(isTensorCoreKernel("nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_NNT", true));
    EXPECT_FALSE(isTensorCoreKernel("void at::native::vectorized_elementwise_kernel<8>", false));
    EXPECT_TRUE(isTensorCoreKernel("volta_h884gemm_64x64_ldg8_nn", true));

    const Trace t = readH100("gpt_decoder_bf16.pt.trace.json.gz");
    const GpuTraceAnalysis ours = analyzeGpuTrace(t, GpuAnalysisOptions{false});
    ASSERT_TRUE(ours.metrics.tc_used_ratio.has_value());
    EXPECT_GT(*ours.metrics.tc_used_ratio, 0.3);
    const GpuTraceAnalysis plugin = analyzeGpuTrace(t, GpuAnalysisOptions{true});
    ASSERT_TRUE(plugin.metrics.tc_used_ratio.has_value());
    EXPECT_EQ(*plugin.metrics.tc_used_ratio, 0.0);
}

// PyTorch 2.x keeps with_stack's frames as python_function events only; an
// operator's stack is the chain of source frames open when it starts.
TEST(H100Trace, CallStacksComeFromPythonFrames) {
    const Trace t = readH100("gpt_decoder_bf16.pt.trace.json.gz");
    const test::OperatorStacks stacks = test::operatorStacks(t, "aten::linear");
    const std::string& linear_stack = stacks.first;
    // The forward and the optimizer; autograd's thread has none.
    EXPECT_GT(stacks.with_stack, stacks.ops / 3);
    // Innermost first, source frames only: the linear layer's forward, then the caller's.
    EXPECT_EQ(linear_stack.rfind("torch/nn/modules/linear.py(", 0), 0u) << linear_stack;
    EXPECT_EQ(linear_stack.find("nn.Module:"), std::string::npos);
    EXPECT_EQ(linear_stack.find("<built-in"), std::string::npos);
    EXPECT_NE(linear_stack.find(";prof.py("), std::string::npos) << linear_stack;
}

// A trace whose operators carry "Call stack" keeps those stacks as written.
TEST(H100Trace, RecordedCallStacksAreKept) {
    const Trace t = parseChromeTrace(R"({"traceEvents": [
        {"ph": "X", "cat": "python_function", "name": "train.py(3): step", "pid": 1, "tid": 1, "ts": 0, "dur": 50},
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
         "args": {"Call stack": "model.py(10): forward"}},
        {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 20, "dur": 5}
    ]})",
                                     "stacks.json");
    ASSERT_EQ(t.events.size(), 2u);
    for (size_t i = 0; i < t.events.size(); ++i) {
        const int32_t stack = t.events.callStack(i);
        if (t.nameOf(t.events[i]) == "aten::mm") {
            ASSERT_GE(stack, 0);
            EXPECT_EQ(t.strings[size_t(stack)], "model.py(10): forward");
        } else {
            EXPECT_EQ(stack, -1);
        }
    }
}

// CUPTI's buffer requests and flushes (pid -1, tid 0 on the 45-step H100
// trace) sit in a lane that says so, not in "thread 0".
TEST(H100Trace, CuptiOverheadHasItsOwnLaneName) {
    const Trace t = parseChromeTrace(R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 7, "ts": 10, "dur": 5},
        {"ph": "X", "cat": "overhead", "name": "Activity Buffer Request", "pid": -1, "tid": 0,
         "ts": 12, "dur": 400},
        {"ph": "X", "cat": "overhead", "name": "Buffer Flush", "pid": -1, "tid": 0, "ts": 500, "dur": 100}
    ]})",
                                     "overhead.json");
    ASSERT_EQ(t.lanes.size(), 2u);
    EXPECT_EQ(t.lanes[0].name, "thread 7");
    EXPECT_EQ(t.lanes[1].name, "profiler overhead (CUPTI)");
    EXPECT_FALSE(t.lanes[1].device);
}

} // namespace
} // namespace ts
