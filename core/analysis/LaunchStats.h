#pragma once
// Holistic Trace Analysis' kernel launch statistics: for each kernel, copy
// or set and the runtime call that launched it, the call's CPU duration,
// the work's GPU duration and the launch delay (from the call's end to the
// work's start), their distribution, and the outliers by HTA's rules: short
// kernels (a GPU duration below the call's own, for a call under the
// runtime cutoff), slow runtime calls (over it), long launch delays.
#include <array>
#include <cstdint>
#include <vector>

#include "analysis/DeviceActivity.h"

namespace ts {

struct LaunchStatOptions {
    int64_t runtime_cutoff_ns = 50000;       // HTA's runtime_cutoff (50 us)
    int64_t launch_delay_cutoff_ns = 100000; // HTA's launch_delay_cutoff (100 us)
    // Only the calls HTA pairs (cudaLaunchKernel, cudaLaunchKernelExC,
    // cudaMemcpyAsync, cudaMemsetAsync): for the comparison with HTA.
    // Trainscope pairs every launch the trace links, driver calls
    // (cuLaunchKernel, cuLaunchKernelEx) and graph launches included.
    bool hta_calls_only = false;
};

struct KernelLaunch {
    int32_t runtime = -1; // the call (Trace::events index)
    int32_t device = -1;  // the work
    int64_t cpu_ns = 0, gpu_ns = 0, delay_ns = 0;
};

enum class LaunchOutlier : uint8_t { ShortKernel, SlowRuntime, LongDelay };
inline constexpr size_t kLaunchOutlierCount = 3;
const char* toString(LaunchOutlier outlier); // "short_kernels", ...
bool isOutlier(const KernelLaunch& launch, LaunchOutlier outlier, const LaunchStatOptions& options);

// One measure over the launches, ns.
struct LaunchMeasure {
    int64_t total = 0;
    double mean = 0, p50 = 0, p95 = 0, max = 0;
};

struct LaunchStats {
    int64_t rank = 0;
    LaunchStatOptions options;
    std::vector<KernelLaunch> launches; // in the order of the work's start
    LaunchMeasure cpu, gpu, delay;
    std::array<int64_t, kLaunchOutlierCount> outliers{};
};

LaunchStats launchStats(const Trace& trace, const DeviceActivities& activity,
                        const LaunchStatOptions& options = {});

} // namespace ts
