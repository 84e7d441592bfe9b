#include "analysis/KinetoEvents.h"

#include <algorithm>
#include <optional>

#include "trace/KinetoNames.h"

namespace ts {

namespace {

std::optional<PluginType> typeOfCategory(KinetoCategory category, const std::string& name,
                                         const GpuAnalysisOptions& options) {
    switch (category) {
    case KinetoCategory::Trace:
        return PluginType::Trace;
    case KinetoCategory::Operator:
        return isProfilerStepName(name) ? PluginType::ProfilerStep : PluginType::Operator;
    case KinetoCategory::UserAnnotation:
    case KinetoCategory::GpuUserAnnotation:
        return isProfilerStepName(name) ? PluginType::ProfilerStep : PluginType::UserAnnotation;
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

bool isDeviceType(PluginType type) {
    return type == PluginType::Kernel || type == PluginType::Memcpy || type == PluginType::Memset;
}

bool isHostType(PluginType type) {
    return type == PluginType::Operator || type == PluginType::ProfilerStep ||
           type == PluginType::Python || type == PluginType::UserAnnotation;
}

KinetoEvents collectKinetoEvents(const Trace& trace, const GpuAnalysisOptions& options) {
    KinetoEvents out;
    const bool by_category = trace.events.hasCategories();
    // The core records only: this pass runs over every event of the trace.
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const EventCore& e = trace.events.core(i);
        const auto index = static_cast<int32_t>(i);
        const bool device_lane = e.lane < trace.lanes.size() && trace.lanes[e.lane].device;
        const std::optional<PluginType> type =
            by_category ? typeOfCategory(e.category, trace.names[e.name], options)
                        : typeOfKind(e.kind, device_lane);
        if (!type) continue;
        KinetoEvent k{index, *type, e.start_ns, e.end_ns(), -1, -1};
        if (const std::optional<EventIds> ids = trace.events.ids(i)) {
            k.correlation = ids->correlation;
            k.external_id = ids->external_id;
        }
        out.events.push_back(k);
    }
    std::stable_sort(out.events.begin(), out.events.end(),
                     [&](const KinetoEvent& a, const KinetoEvent& b) {
                         if (a.start != b.start) return a.start < b.start;
                         const int32_t la = trace.events.core(size_t(a.event)).lane;
                         const int32_t lb = trace.events.core(size_t(b.event)).lane;
                         if (la != lb) return la < lb;
                         return a.event < b.event;
                     });
    return out;
}

} // namespace ts
