#pragma once
// The TensorBoard plugin's Overview of a Kineto trace: every microsecond of
// a step goes to the first of Kernel > Memcpy > Memset > Communication >
// Runtime > DataLoader > CPU Exec that is active then, the rest is Other. A
// step runs from its ProfilerStep range to the end of the device work it
// launched (never before the previous step's end), and trailing steps whose
// kernels the profiler missed are dropped.
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "analysis/KinetoEvents.h"
#include "analysis/LaunchLinks.h"
#include "analysis/RangeSet.h"

namespace ts {

enum class GpuRole : uint8_t {
    Kernel,
    Memcpy,
    Memset,
    Communication,
    Runtime,
    DataLoader,
    CpuExec,
    Other,
    Total,
};
inline constexpr size_t kGpuRoleCount = 9;
// "Kernel", ..., "CPU Exec", "Other", "Total".
const char* toString(GpuRole role);
// "kernel", ..., "cpu_exec", "other", "total".
const char* keyOf(GpuRole role);

struct GpuStep {
    std::string label;                // the ProfilerStep number, "0" without steps
    int64_t start_ns = 0, end_ns = 0; // after the extension to its device work
    std::array<int64_t, kGpuRoleCount> cost_ns{};
};

struct GpuOverview {
    std::vector<GpuStep> steps;
    std::array<double, kGpuRoleCount> average_ns{}; // over the steps
    std::array<RangeList, 8> roles;                 // merged ranges per role (before priority)
    bool has_runtime = false, has_kernel = false, has_memcpy_or_memset = false,
         has_communication = false;
    bool use_dp = false, use_ddp = false; // DataParallel.forward / DistributedDataParallel.forward
    bool nccl = false, gloo = false;      // collectives of these libraries seen
    std::set<int32_t> used_devices;       // GPUs (pid) of kernels, memcpy, memset
    int64_t global_start_ns = 0, global_end_ns = 0;

    bool showsGpu() const { return has_runtime || has_kernel || has_memcpy_or_memset; }
    double share(GpuRole role) const; // average[role] / average[Total], 0 when no time
};

// keep_roles false: `roles` is left empty, each list let go as soon as the
// split has used it (13 B per event less at the peak of a large trace's
// analysis; only the Distributed view reads them).
GpuOverview computeGpuOverview(const Trace& trace, const KinetoEvents& events,
                               const LaunchLinks& links, const GpuAnalysisOptions& options,
                               bool keep_roles = true);

} // namespace ts
