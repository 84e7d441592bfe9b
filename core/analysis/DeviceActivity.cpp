#include "analysis/DeviceActivity.h"

#include <algorithm>
#include <cmath>
#include <tuple>

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

// HTA's rounding, replayed: it reads the trace's microseconds as doubles
// (a 2024 timestamp to a quarter of a microsecond), adds the duration in
// doubles, then rounds the start up and that sum down. The same double
// arithmetic here gives the same whole microseconds.
double htaMicros(int64_t absolute_ns) {
    return double(absolute_ns / 1000) + double(absolute_ns % 1000) / 1000.0;
}

} // namespace

std::pair<int64_t, int64_t> htaRounded(int64_t start, int64_t end, int64_t origin) {
    const double ts = htaMicros(origin + start);
    const double last = ts + double(end - start) / 1000.0;
    return {int64_t(std::ceil(ts)) * 1000 - origin, int64_t(std::floor(last)) * 1000 - origin};
}

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

DeviceActivities collectDeviceActivity(const Trace& trace, const ActivityOptions& options,
                                       const LaunchIndex* made) {
    DeviceActivities out;
    const int64_t rank = rankFromDistributedInfo(trace.kineto.distributed_info);
    out.rank = rank < 0 ? 0 : rank;
    const LaunchIndex built = made ? LaunchIndex{} : LaunchIndex::build(trace);
    const LaunchIndex& launches = made ? *made : built;
    const auto [cutoff, steps] = lastStepStart(trace);
    out.last_step_dropped = options.drop_last_step && steps >= 2;
    out.cutoff = cutoff;
    const bool round = options.hta_rounding;
    const int64_t cut = round ? htaRounded(cutoff, cutoff, trace.origin_ns).first : cutoff;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const TraceEvent e = trace.events[i];
        const KinetoCategory category = trace.categoryOf(int32_t(i));
        const bool work = isDeviceWork(category);
        if (!trace.lanes[size_t(e.lane)].device || !(work || category == KinetoCategory::Other))
            continue;
        DeviceActivity a;
        a.event = int32_t(i);
        a.lane = e.lane;
        a.start = e.start_ns;
        a.end = e.end_ns();
        a.type = kernelTypeOf(trace.nameOf(e), category);
        a.work = work;
        a.launcher = launches.launcherOf(int32_t(i));
        if (a.launcher >= 0) {
            const TraceEvent call = trace.events[size_t(a.launcher)];
            a.launch = call.start_ns;
            a.launch_end = call.end_ns();
        }
        if (round) {
            std::tie(a.start, a.end) = htaRounded(a.start, a.end, trace.origin_ns);
            if (a.launch >= 0)
                std::tie(a.launch, a.launch_end) =
                    htaRounded(a.launch, a.launch_end, trace.origin_ns);
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

ActivityFacts activityFacts(const DeviceActivities& activity) {
    ActivityFacts f;
    f.any = !activity.empty();
    f.linked = std::any_of(activity.events.begin(), activity.events.end(),
                           [](const DeviceActivity& e) { return e.launch >= 0; });
    f.last_step_dropped = activity.last_step_dropped;
    f.dropped = activity.dropped;
    return f;
}

} // namespace ts
