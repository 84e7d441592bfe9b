#include "operators/DeviceOpData.h"

#include <algorithm>

#include "analysis/GpuOverview.h"

namespace ts::gui {

// Kineto side tables alone do not tell: Trainscope's own trace files carry
// Kineto categories too ("cpu_op" on its operators), so they come back from
// the reader with side tables. The reader labels foreign files by source;
// Trainscope's keep their own label ("trainscope") and today's table.
bool isKinetoTrace(const Trace& trace) {
    if (!trace.hasKinetoInfo()) return false;
    return trace.source.rfind("torch.profiler", 0) == 0 || trace.source == "chrome trace";
}

DeviceOpTable DeviceOpData::table(DeviceOpGrouping grouping, const TimeWindow& window) const {
    return computeDeviceOpTable(*trace, *tree, grouping, by_device, window);
}

bool DeviceOpData::hasCallStacks() const {
    return std::any_of(by_stack.rows.begin(), by_stack.rows.end(),
                       [](const DeviceOpRow& r) { return !r.call_stack.empty(); });
}

// The part of analyzeGpuTrace the Operators view needs (the tree, and the
// Overview for "has device time"), without the kernel tables and metrics.
std::unique_ptr<const DeviceOpData>
makeDeviceOpData(std::shared_ptr<const Trace> trace,
                 std::shared_ptr<const GpuTraceAnalysis> analysis) {
    auto data = std::make_unique<DeviceOpData>();
    if (analysis) { // the tree of the document's analysis, shared, not copied
        data->tree = std::shared_ptr<const DeviceOpTree>(analysis, &analysis->tree);
        data->by_device = analysis->overview.has_kernel || analysis->overview.has_memcpy_or_memset;
    } else {
        const GpuAnalysisOptions options;
        const KinetoEvents events = collectKinetoEvents(*trace, options);
        const LaunchLinks links = linkLaunches(*trace, events);
        data->tree =
            std::make_shared<const DeviceOpTree>(buildDeviceOpTree(*trace, events, links, options));
        const GpuOverview overview = computeGpuOverview(*trace, events, links, options);
        data->by_device = overview.has_kernel || overview.has_memcpy_or_memset;
    }
    data->trace = std::move(trace);
    data->by_stack = data->table(DeviceOpGrouping::NameShapesAndStack);
    return data;
}

} // namespace ts::gui
