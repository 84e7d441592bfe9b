// Each advice rule on constructed breakdowns: it fires when its figures say
// so, stays quiet otherwise, and cites the numbers that made it fire.
#include <algorithm>
#include <optional>

#include <gtest/gtest.h>

#include "SeededNoise.h"
#include "analysis/Advice.h"

namespace {

using ts::AdviceSeverity;

// A CPU run on 8 cores with 8 threads, 100 ms steps, all of it compute.
ts::AdviceInput quietCpuRun() {
    ts::AdviceInput in;
    in.info.config.device = "cpu";
    in.info.config.precision = "fp32";
    in.info.config.batch_size = 64;
    in.info.env.logical_cores = 8;
    in.info.env.intra_op_threads = 8;
    in.info.env.cpu_model = "Test CPU";
    in.info.env.blas = "OpenBLAS (pthread)";
    in.summary.steps_completed = 100;
    in.summary.median_step_ms = 100;
    in.summary.median_phases.forward_ms = 40;
    in.summary.median_phases.backward_ms = 55;
    in.summary.median_phases.optimizer_ms = 5;
    return in;
}

ts::AdviceInput quietCudaRun() {
    auto in = quietCpuRun();
    in.info.config.device = "cuda:0";
    in.info.config.cudnn_benchmark = true;
    in.info.config.precision = "bf16";
    in.info.config.channels_last = true;
    return in;
}

// A copy: the advice lists in the tests are temporaries.
std::optional<ts::Advice> find(const std::vector<ts::Advice>& list, const std::string& rule) {
    for (const auto& a : list)
        if (a.rule == rule) return a;
    return std::nullopt;
}

bool contains(const std::optional<ts::Advice>& a, const std::string& text) {
    return a && a->message.find(text) != std::string::npos;
}

} // namespace

TEST(Advice, QuietRunsGetNoAdvice) {
    EXPECT_TRUE(ts::adviseRun(quietCpuRun()).empty());
    EXPECT_TRUE(ts::adviseRun(quietCudaRun()).empty());
}

TEST(Advice, DataWaitCitesItsShareAndSuggestsWorkers) {
    auto in = quietCpuRun();
    in.summary.median_phases.data_ms = 4; // 4% of the step: below the 5% limit
    EXPECT_EQ(find(ts::adviseRun(in), "data-wait"), std::nullopt);
    in.summary.median_phases.data_ms = 12;
    auto a = find(ts::adviseRun(in), "data-wait");
    ASSERT_NE(a, std::nullopt);
    EXPECT_EQ(a->severity, AdviceSeverity::Suggestion);
    EXPECT_TRUE(contains(a, "12.00 ms of a 100.00 ms step (12.0%)")) << a->message;
    EXPECT_TRUE(contains(a, "workers=4"));
    in.summary.median_phases.data_ms = 30;
    in.info.config.workers = 2;
    a = find(ts::adviseRun(in), "data-wait");
    ASSERT_NE(a, std::nullopt);
    EXPECT_EQ(a->severity, AdviceSeverity::Warning);
    EXPECT_TRUE(contains(a, "now 2")) << a->message;
}

namespace {

// Steps whose data wait scatters around `data_ms`, the rest compute.
std::vector<ts::StepRecord> noisyDataSteps(double data_ms, double spread_ms, int n) {
    std::vector<ts::StepRecord> steps;
    ts::test::SeededNoise noise(11);
    for (int i = 0; i < n; ++i) {
        ts::StepRecord s;
        s.step = i;
        s.phases.data_ms = std::max(0.0, data_ms + spread_ms * noise.normal());
        s.phases.forward_ms = 40;
        s.phases.backward_ms = 100 - 40 - s.phases.data_ms;
        s.step_ms = 100;
        steps.push_back(s);
    }
    return steps;
}

} // namespace

TEST(Advice, ShareRulesFireOnlyWhenTheStepsIntervalClearsTheLimit) {
    auto in = quietCpuRun();
    in.info.config.warmup_steps_excluded = 0;
    // A median of 5.3% against the 5% limit, from steps that scatter by 3 ms:
    // the summary alone would fire, the interval says it is noise.
    in.summary.median_phases.data_ms = 5.3;
    EXPECT_NE(find(ts::adviseRun(in), "data-wait"), std::nullopt) << "without steps";
    const auto scattered = noisyDataSteps(5.3, 3.0, 40);
    in.steps = &scattered;
    EXPECT_EQ(find(ts::adviseRun(in), "data-wait"), std::nullopt) << "inside the noise";
    // A steady 8%: fires, and cites the interval and the step count.
    in.summary.median_phases.data_ms = 8;
    const auto steady = noisyDataSteps(8, 0.3, 200);
    in.steps = &steady;
    const auto a = find(ts::adviseRun(in), "data-wait");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "95% interval 7.")) << a->message;
    EXPECT_TRUE(contains(a, "over 200 steps")) << a->message;
}

TEST(Advice, PinnedMemoryOnlyForLargeCudaCopies) {
    auto in = quietCudaRun();
    in.summary.median_phases.copy_ms = 8;
    auto a = find(ts::adviseRun(in), "pinned-memory");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "pin_memory=true"));
    EXPECT_TRUE(contains(a, "8.00 ms")) << a->message;
    in.info.config.pin_memory = true;
    a = find(ts::adviseRun(in), "pinned-memory");
    ASSERT_NE(a, std::nullopt);
    EXPECT_EQ(a->severity, AdviceSeverity::Info);
    auto cpu = quietCpuRun();
    cpu.summary.median_phases.copy_ms = 8;
    EXPECT_EQ(find(ts::adviseRun(cpu), "pinned-memory"), std::nullopt);
}

TEST(Advice, ReferenceBlasWarnsWithTheMatmulShare) {
    auto in = quietCpuRun();
    in.info.env.reference_blas = true;
    in.info.env.blas_library = "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3";
    ts::OpTable ops;
    ops.rows.push_back({"aten::addmm", "", false, 10, 60'000'000});
    ops.rows.push_back({"aten::convolution", "", false, 10, 40'000'000});
    ops.total_self_cpu_ns = 100'000'000;
    in.ops = &ops;
    const auto advice = ts::adviseRun(in);
    ASSERT_FALSE(advice.empty());
    EXPECT_EQ(advice[0].rule, "reference-blas") << "warnings come first";
    EXPECT_EQ(advice[0].severity, AdviceSeverity::Warning);
    EXPECT_TRUE(contains(advice[0], "60.0% of self CPU time")) << advice[0].message;
    EXPECT_TRUE(contains(advice[0], "libopenblas0-pthread"));
    EXPECT_TRUE(contains(advice[0], "libblas.so.3"));
}

TEST(Advice, MixedPrecisionWhereTheHardwareHasIt) {
    auto in = quietCpuRun();
    EXPECT_EQ(find(ts::adviseRun(in), "mixed-precision"), std::nullopt) << "no native bf16";
    in.info.env.cpu_features = {"avx512f", "amx_bf16"};
    auto a = find(ts::adviseRun(in), "mixed-precision");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "precision=bf16"));
    EXPECT_TRUE(contains(a, "95.00 ms of a 100.00 ms step (95.0%)")) << a->message;
    auto cuda = quietCudaRun();
    cuda.info.config.precision = "fp32";
    a = find(ts::adviseRun(cuda), "mixed-precision");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "fp16"));
    auto emulated = quietCpuRun();
    emulated.info.config.precision = "bf16";
    a = find(ts::adviseRun(emulated), "mixed-precision");
    ASSERT_NE(a, std::nullopt);
    EXPECT_EQ(a->severity, AdviceSeverity::Warning);
    EXPECT_TRUE(contains(a, "emulated"));
}

TEST(Advice, DeviceIdleFromProfiledDeviceTime) {
    auto in = quietCudaRun();
    ts::OpTable ops;
    ops.total_self_device_ns = 60'000'000; // 30 ms per step over 2 steps
    in.ops = &ops;
    in.profiled_steps = 2;
    auto a = find(ts::adviseRun(in), "device-idle");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "30.00 ms of each 100.00 ms step (30.0% busy over 2")) << a->message;
    EXPECT_TRUE(contains(a, "batch_size=128"));
    ops.total_self_device_ns = 160'000'000; // 80% busy
    EXPECT_EQ(find(ts::adviseRun(in), "device-idle"), std::nullopt);
    in.profiled_steps = 0;
    EXPECT_EQ(find(ts::adviseRun(in), "device-idle"), std::nullopt);
}

TEST(Advice, MemoryHeadroomNeedsTheDeviceTotal) {
    auto in = quietCudaRun();
    in.summary.peak_device_bytes = int64_t(2) << 30;
    EXPECT_EQ(find(ts::adviseRun(in), "memory-headroom"), std::nullopt) << "total unknown";
    in.info.env.cuda_devices.push_back({0, "cuda:0", int64_t(16) << 30, 8, 0});
    auto a = find(ts::adviseRun(in), "memory-headroom");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "2048 MiB of 16384 MiB (12.5%)")) << a->message;
}

TEST(Advice, ThreadsOverflowCudnnAndChannelsLast) {
    auto in = quietCpuRun();
    EXPECT_EQ(find(ts::adviseRun(in), "intra-op-threads"), std::nullopt) << "8 threads, 8 cores";
    // LibTorch's default on a 2-core VM: one thread while forward + backward are 95% of the step.
    in.info.env.logical_cores = 2;
    in.info.env.usable_cores = 2;
    in.info.env.intra_op_threads = 1;
    auto a = find(ts::adviseRun(in), "intra-op-threads");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "LibTorch's default ran operators on 1 intra-op thread(s) while this "
                            "process may use 2 cores"))
        << a->message;
    EXPECT_TRUE(contains(a, "95.00 ms of a 100.00 ms step (95%): set threads=0")) << a->message;
    // An explicit threads=1 on 8 usable cores.
    in.info.env.logical_cores = 8;
    in.info.env.usable_cores = 8;
    in.info.config.threads = 1;
    a = find(ts::adviseRun(in), "intra-op-threads");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "threads=1 ran operators on 1 intra-op thread(s) while this process "
                            "may use 8 cores"))
        << a->message;
    // The affinity narrows the machine: 2 threads on the 2 cores it may use are all there is.
    in.info.env.usable_cores = 2;
    in.info.env.intra_op_threads = 2;
    EXPECT_EQ(find(ts::adviseRun(in), "intra-op-threads"), std::nullopt);
    // A step that is mostly waiting for data: more threads would not help.
    in.info.env.intra_op_threads = 1;
    in.summary.median_phases.forward_ms = 10;
    in.summary.median_phases.backward_ms = 10;
    EXPECT_EQ(find(ts::adviseRun(in), "intra-op-threads"), std::nullopt);

    auto fp16 = quietCudaRun();
    fp16.info.config.precision = "fp16";
    fp16.summary.skipped_steps = 5;
    a = find(ts::adviseRun(fp16), "fp16-overflow");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "5 of 100 optimizer steps (5.0%)"));
    fp16.summary.skipped_steps = 1;
    EXPECT_EQ(find(ts::adviseRun(fp16), "fp16-overflow"), std::nullopt);

    auto cuda = quietCudaRun();
    cuda.info.config.cudnn_benchmark = false;
    cuda.info.config.channels_last = false;
    const auto advice = ts::adviseRun(cuda);
    EXPECT_NE(find(advice, "cudnn-benchmark"), std::nullopt);
    EXPECT_NE(find(advice, "channels-last"), std::nullopt);
    cuda.info.config.deterministic = true;
    EXPECT_EQ(find(ts::adviseRun(cuda), "cudnn-benchmark"), std::nullopt);
}

TEST(Advice, PageFaultsSuggestRetainingHostMemory) {
    auto in = quietCpuRun();
    in.info.config.retain_host_memory = false;
    EXPECT_EQ(find(ts::adviseRun(in), "page-faults"), std::nullopt) << "not recorded (NaN)";
    in.summary.median_page_faults = 1000;
    EXPECT_EQ(find(ts::adviseRun(in), "page-faults"), std::nullopt) << "below the limit";
    in.summary.median_page_faults = 51200;
    const auto a = find(ts::adviseRun(in), "page-faults");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "51200 page faults per step (about 200 MiB")) << a->message;
    EXPECT_TRUE(contains(a, "retain_host_memory=true")) << a->message;
    in.info.config.retain_host_memory = true;
    EXPECT_EQ(find(ts::adviseRun(in), "page-faults"), std::nullopt) << "already retained";
}

TEST(Advice, FusedOptimizerWhereTheLoopTakesAShareOfTheStep) {
    auto in = quietCpuRun();
    in.info.optimizer_implementation = "torch::optim::AdamW (fused_optimizer is off)";
    in.info.config.fused_optimizer = false;
    EXPECT_EQ(find(ts::adviseRun(in), "fused-optimizer"), std::nullopt) << "5% of the step";
    in.summary.median_phases.optimizer_ms = 30;
    in.summary.median_step_ms = 125;
    auto a = find(ts::adviseRun(in), "fused-optimizer");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "takes 30.00 ms of a 125.00 ms step (24.0%")) << a->message;
    EXPECT_TRUE(contains(a, "(torch::optim::AdamW (fused_optimizer is off))")) << a->message;
    EXPECT_TRUE(contains(a, "set fused_optimizer=true")) << a->message;

    in.info.config.fused_optimizer = true;
    in.info.optimizer_implementation =
        "torch::optim::SGD (LibTorch 1.13.0 has no fused SGD kernel; 2.4 added it)";
    a = find(ts::adviseRun(in), "fused-optimizer");
    ASSERT_NE(a, std::nullopt);
    EXPECT_TRUE(contains(a, "LibTorch 2.4 or later")) << a->message;

    in.info.optimizer_implementation = "fused SGD (at::_fused_sgd_)";
    EXPECT_EQ(find(ts::adviseRun(in), "fused-optimizer"), std::nullopt) << "already fused";
    in.info.optimizer_implementation =
        "torch::optim::SGD (a parameter is not dense, which the fused kernel needs)";
    EXPECT_EQ(find(ts::adviseRun(in), "fused-optimizer"), std::nullopt) << "cannot be fused";
    in.info.optimizer_implementation.clear(); // a run recorded before the field
    EXPECT_EQ(find(ts::adviseRun(in), "fused-optimizer"), std::nullopt);
}

TEST(Advice, EveryFiredRuleIsListed) {
    auto in = quietCudaRun();
    in.info.config.precision = "fp32";
    in.info.config.cudnn_benchmark = false;
    in.summary.median_phases.data_ms = 50;
    in.summary.median_phases.copy_ms = 50;
    in.info.env.reference_blas = true;
    for (const auto& a : ts::adviseRun(in)) {
        const auto& ids = ts::adviceRuleIds();
        EXPECT_NE(std::find(ids.begin(), ids.end(), a.rule), ids.end()) << a.rule;
        EXPECT_FALSE(a.message.empty());
    }
}
