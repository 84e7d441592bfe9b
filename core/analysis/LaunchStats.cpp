#include "analysis/LaunchStats.h"

#include <algorithm>
#include <string_view>

#include "util/Statistics.h"

namespace ts {
namespace {

bool isHtaCall(std::string_view name) {
    return name == "cudaLaunchKernel" || name == "cudaLaunchKernelExC" ||
           name == "cudaMemcpyAsync" || name == "cudaMemsetAsync" ||
           name == "runFunction - job_prep_and_submit_for_execution";
}

LaunchMeasure measure(std::vector<int64_t> values) {
    LaunchMeasure m;
    if (values.empty()) return m;
    std::sort(values.begin(), values.end());
    for (int64_t v : values)
        m.total += v;
    m.mean = double(m.total) / double(values.size());
    m.p50 = linearQuantile(values, 0.5);
    m.p95 = linearQuantile(values, 0.95);
    m.max = double(values.back());
    return m;
}

} // namespace

const char* toString(LaunchOutlier outlier) {
    switch (outlier) {
    case LaunchOutlier::ShortKernel:
        return "short_kernels";
    case LaunchOutlier::SlowRuntime:
        return "slow_runtime_calls";
    case LaunchOutlier::LongDelay:
        return "long_launch_delays";
    }
    return "";
}

bool isOutlier(const KernelLaunch& l, LaunchOutlier outlier, const LaunchStatOptions& o) {
    switch (outlier) {
    case LaunchOutlier::ShortKernel:
        return l.cpu_ns <= o.runtime_cutoff_ns && l.gpu_ns < l.cpu_ns;
    case LaunchOutlier::SlowRuntime:
        return l.cpu_ns > o.runtime_cutoff_ns;
    case LaunchOutlier::LongDelay:
        return l.delay_ns > o.launch_delay_cutoff_ns;
    }
    return false;
}

LaunchStats launchStats(const Trace& trace, const DeviceActivities& activity,
                        const LaunchStatOptions& options) {
    LaunchStats out;
    out.rank = activity.rank;
    out.options = options;
    for (const DeviceActivity& a : activity.events) {
        if (!a.work || a.launcher < 0) continue;
        if (options.hta_calls_only && !isHtaCall(trace.nameOf(trace.events[size_t(a.launcher)])))
            continue;
        out.launches.push_back({a.launcher, a.event, a.launch_end - a.launch, a.end - a.start,
                                std::max<int64_t>(0, a.start - a.launch_end)});
    }
    std::stable_sort(out.launches.begin(), out.launches.end(),
                     [&trace](const KernelLaunch& x, const KernelLaunch& y) {
                         return trace.events[size_t(x.device)].start_ns <
                                trace.events[size_t(y.device)].start_ns;
                     });
    std::vector<int64_t> cpu, gpu, delay;
    for (const KernelLaunch& l : out.launches) {
        cpu.push_back(l.cpu_ns);
        gpu.push_back(l.gpu_ns);
        delay.push_back(l.delay_ns);
        for (size_t k = 0; k < kLaunchOutlierCount; ++k)
            out.outliers[k] += isOutlier(l, LaunchOutlier(k), options);
    }
    out.cpu = measure(std::move(cpu));
    out.gpu = measure(std::move(gpu));
    out.delay = measure(std::move(delay));
    return out;
}

} // namespace ts
