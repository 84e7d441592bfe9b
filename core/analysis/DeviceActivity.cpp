#include "analysis/DeviceActivity.h"

#include <algorithm>

#include "analysis/LaunchIndex.h"
#include "trace/RankFolder.h"

namespace ts {
namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool isStepName(std::string_view name) {
    return startsWith(name, "ProfilerStep#");
}

// The latest start of a ProfilerStep range, on any lane (HTA takes the GPU
// annotations of the steps too, which start after the CPU's), and how many.
std::pair<int64_t, size_t> lastStepStart(const Trace& trace) {
    int64_t last = 0;
    std::vector<uint32_t> step_names;
    for (uint32_t n = 0; n < trace.names.size(); ++n)
        if (isStepName(trace.names[n])) step_names.push_back(n);
    if (step_names.size() < 2) return {0, step_names.size()};
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const TraceEvent e = trace.events[i];
        if (std::binary_search(step_names.begin(), step_names.end(), e.name))
            last = std::max(last, e.start_ns);
    }
    return {last, step_names.size()};
}

bool isDeviceWork(KinetoCategory c) {
    return c == KinetoCategory::Kernel || c == KinetoCategory::Memcpy ||
           c == KinetoCategory::Memset;
}

// Whole microseconds of the trace's absolute clock, up (starts) or down
// (ends): in integers, since a double holds a 2023 timestamp in ns only to
// about a microsecond.
int64_t floorDiv(int64_t a, int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

int64_t roundedNs(int64_t ns, int64_t origin, bool up) {
    const int64_t absolute = origin + ns;
    const int64_t us = up ? -floorDiv(-absolute, 1000) : floorDiv(absolute, 1000);
    return us * 1000 - origin;
}

} // namespace

const char* toString(KernelType type) {
    switch (type) {
    case KernelType::Computation:
        return "computation";
    case KernelType::Communication:
        return "communication";
    case KernelType::Memory:
        return "memory";
    case KernelType::Other:
        return "other";
    }
    return "";
}

KernelType kernelTypeOf(std::string_view name, KinetoCategory category) {
    if (startsWith(name, "nccl") || startsWith(name, "hccl") ||
        name.find("ncclKernel") != std::string_view::npos)
        return KernelType::Communication;
    if (category == KinetoCategory::Memcpy || category == KinetoCategory::Memset ||
        startsWith(name, "Memcpy") || startsWith(name, "Memset") || startsWith(name, "dma"))
        return KernelType::Memory;
    if (name.find("Sync") != std::string_view::npos || startsWith(name, "Stream Wait Event") ||
        !isDeviceWork(category))
        return KernelType::Other;
    return KernelType::Computation;
}

DeviceActivities collectDeviceActivity(const Trace& trace, const ActivityOptions& options) {
    DeviceActivities out;
    const int64_t rank = rankFromDistributedInfo(trace.kineto.distributed_info);
    out.rank = rank < 0 ? 0 : rank;
    const LaunchIndex launches = LaunchIndex::build(trace);
    const auto [cutoff, steps] = lastStepStart(trace);
    out.last_step_dropped = options.drop_last_step && steps >= 2;
    out.cutoff = cutoff;
    const bool round = options.hta_rounding;
    const int64_t cut = round ? roundedNs(cutoff, trace.origin_ns, true) : cutoff;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const TraceEvent e = trace.events[i];
        const KinetoCategory category = trace.categoryOf(int32_t(i));
        const bool work = isDeviceWork(category);
        if (!trace.lanes[size_t(e.lane)].device || !(work || category == KinetoCategory::Other))
            continue;
        DeviceActivity a{int32_t(i), e.lane, e.start_ns,
                         e.end_ns(), -1,     kernelTypeOf(trace.nameOf(e), category),
                         work};
        const int32_t launcher = launches.launcherOf(int32_t(i));
        if (launcher >= 0) a.launch = trace.events[size_t(launcher)].start_ns;
        if (round) {
            a.start = roundedNs(a.start, trace.origin_ns, true);
            a.end = roundedNs(a.end, trace.origin_ns, false);
            if (a.launch >= 0) a.launch = roundedNs(a.launch, trace.origin_ns, true);
        }
        if (out.last_step_dropped && (a.launch < 0 || a.launch >= cut)) {
            ++out.dropped;
            continue;
        }
        out.events.push_back(a);
    }
    std::sort(out.events.begin(), out.events.end(),
              [](const DeviceActivity& a, const DeviceActivity& b) {
                  return std::tie(a.lane, a.start, a.end) < std::tie(b.lane, b.start, b.end);
              });
    return out;
}

} // namespace ts
