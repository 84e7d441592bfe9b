#include "analysis/KinetoEvents.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "analysis/NameFlags.h"
#include "util/CpuAffinity.h"
#include "util/SortedRuns.h"
#include "util/ThreadPool.h"

namespace ts {

namespace {

constexpr uint8_t kNoType = 0xff; // not one of PluginType's values

std::optional<PluginType> typeOfCategory(KinetoCategory category, uint32_t name,
                                         const NameFlags& flags,
                                         const GpuAnalysisOptions& options) {
    switch (category) {
    case KinetoCategory::Trace:
        return PluginType::Trace;
    case KinetoCategory::Operator:
        return flags.profilerStep(name) ? PluginType::ProfilerStep : PluginType::Operator;
    case KinetoCategory::UserAnnotation:
        return flags.profilerStep(name) ? PluginType::ProfilerStep : PluginType::UserAnnotation;
    case KinetoCategory::GpuUserAnnotation:
        // The GPU stream's copy of a ProfilerStep#N range is no step of its own.
        return PluginType::UserAnnotation;
    case KinetoCategory::Runtime:
        return PluginType::Runtime;
    case KinetoCategory::Driver:
        // Newer Kineto records driver calls (cuLaunchKernel) that launch
        // device work just like runtime calls; the plugin predates them.
        if (options.plugin_compatible) return std::nullopt;
        return PluginType::Runtime;
    case KinetoCategory::Kernel:
        return PluginType::Kernel;
    case KinetoCategory::Memcpy:
        return PluginType::Memcpy;
    case KinetoCategory::Memset:
        return PluginType::Memset;
    case KinetoCategory::Python:
        return PluginType::Python;
    case KinetoCategory::None:
    case KinetoCategory::Other:
        return std::nullopt;
    }
    return std::nullopt;
}

// Traces without categories (Trainscope's own, legacy exports): by kind.
std::optional<PluginType> typeOfKind(EventKind kind, bool device_lane) {
    switch (kind) {
    case EventKind::Operator:
    case EventKind::Backward:
    case EventKind::Communication:
        if (device_lane) return PluginType::Kernel;
        return PluginType::Operator;
    case EventKind::DataLoader:
    case EventKind::Annotation:
        return PluginType::UserAnnotation;
    case EventKind::ProfilerStep:
        return PluginType::ProfilerStep;
    case EventKind::ProfilerRange:
        return PluginType::Trace;
    case EventKind::Runtime:
        return PluginType::Runtime;
    case EventKind::Kernel:
        return PluginType::Kernel;
    case EventKind::Memcpy:
        return PluginType::Memcpy;
    case EventKind::Memset:
        return PluginType::Memset;
    case EventKind::Python:
        return PluginType::Python;
    case EventKind::Other:
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace

EventIds kinetoIds(const Trace& trace, const KinetoEvent& e) {
    const std::optional<EventIds> ids = trace.events.ids(size_t(e.event));
    return ids ? *ids : EventIds{e.event, -1, -1};
}

bool isDeviceType(PluginType type) {
    return type == PluginType::Kernel || type == PluginType::Memcpy || type == PluginType::Memset;
}

bool isHostType(PluginType type) {
    return type == PluginType::Operator || type == PluginType::ProfilerStep ||
           type == PluginType::Python || type == PluginType::UserAnnotation;
}

namespace {

// A trace of millions of events is classified on two threads: this pass
// and its list are most of the time to the first view when a trace is
// reopened from its index.
constexpr size_t kEventsPerThread = size_t(1) << 20;

// [0, n) cut into one contiguous range per thread.
std::vector<std::pair<size_t, size_t>> threadRanges(size_t n) {
    const size_t threads =
        std::clamp<size_t>(n / kEventsPerThread, 1, size_t(std::min(2, usableCores())));
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t p = 0; p < threads; ++p)
        out.emplace_back(n * p / threads, n * (p + 1) / threads);
    return out;
}

} // namespace

KinetoEvents collectKinetoEvents(const Trace& trace, const GpuAnalysisOptions& options) {
    KinetoEvents out;
    const bool by_category = trace.events.hasCategories();
    // The core records only: these passes run over every event of the trace.
    // Types first, so that the list is allocated once at its size: growing
    // millions of events by doubling copies them and touches twice the memory.
    std::vector<uint8_t> types(trace.events.size(), kNoType);
    const NameFlags flags(trace.names, options.plugin_compatible);
    const auto ranges = threadRanges(trace.events.size());
    std::vector<size_t> counts(ranges.size(), 0);
    parallelFor(ranges.size(), unsigned(ranges.size()), [&](size_t p) {
        size_t& count = counts[p];
        for (size_t i = ranges[p].first; i < ranges[p].second; ++i) {
            const EventCore& e = trace.events.core(i);
            const bool device_lane = e.lane < trace.lanes.size() && trace.lanes[e.lane].device;
            const std::optional<PluginType> type =
                by_category ? typeOfCategory(e.category, e.name, flags, options)
                            : typeOfKind(e.kind, device_lane);
            if (!type) continue;
            types[i] = static_cast<uint8_t>(*type);
            ++count;
        }
    });
    std::vector<size_t> offsets(counts.size() + 1, 0);
    std::partial_sum(counts.begin(), counts.end(), offsets.begin() + 1);
    auto before = [&](const KinetoEvent& a, const KinetoEvent& b) {
        if (a.start != b.start) return a.start < b.start;
        const int32_t la = trace.events.core(size_t(a.event)).lane;
        const int32_t lb = trace.events.core(size_t(b.event)).lane;
        if (la != lb) return la < lb;
        return a.event < b.event;
    };
    // Sized once (its zeroing is the one extra pass), then each range's
    // thread fills its part and checks that it is in order.
    out.events.resize(offsets.back());
    std::vector<uint8_t> sorted(ranges.size(), 0); // not vector<bool>: written concurrently
    parallelFor(ranges.size(), unsigned(ranges.size()), [&](size_t p) {
        size_t at = offsets[p];
        for (size_t i = ranges[p].first; i < ranges[p].second; ++i) {
            if (types[i] == kNoType) continue;
            const EventCore& e = trace.events.core(i);
            out.events[at++] = KinetoEvent{
                static_cast<int32_t>(i), static_cast<PluginType>(types[i]), e.start_ns, e.end_ns()};
        }
        const auto begin = out.events.begin() + std::ptrdiff_t(offsets[p]);
        sorted[p] = std::is_sorted(begin, out.events.begin() + std::ptrdiff_t(at), before);
    });
    bool in_order = std::all_of(sorted.begin(), sorted.end(), [](uint8_t b) { return b != 0; });
    for (size_t p = 1; p < ranges.size() && in_order; ++p) // where the parts meet
        if (offsets[p] > 0 && offsets[p] < out.events.size())
            in_order = !before(out.events[offsets[p]], out.events[offsets[p] - 1]);
    // A trace of one lane read by Trainscope is in time order already: the
    // check spares the sort. Otherwise its events come lane by lane, each
    // lane in time order: merging those runs (the same order) is a few passes
    // instead of a full stable sort, which was a tenth of reopening a 1 GB
    // GPU trace.
    if (!in_order) mergeSortedRuns(out.events, sortedRunBegins(out.events, before), before);
    return out;
}

} // namespace ts
