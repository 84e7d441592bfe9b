#pragma once
// What the Operators tab keeps of a torch.profiler (Kineto) trace: its
// operator tree, built once per trace so that regrouping the table only
// re-aggregates it (shared with the document's GPU analysis when there is
// one, which built it off the GUI thread), whether the trace has device time,
// and the operators by name, shapes and call stack that the call-stack pane
// reads.
#include <memory>

#include "analysis/DeviceOpStats.h"
#include "analysis/GpuTraceAnalysis.h"
#include "trace/Trace.h"

namespace ts::gui {

// Does the tab show `trace` as the plugin's Operator view (else as OpStats)?
bool isKinetoTrace(const Trace& trace);

struct DeviceOpData {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const DeviceOpTree> tree;
    bool by_device = false;
    DeviceOpTable by_stack; // grouped by name, input shapes and call stack

    DeviceOpTable table(DeviceOpGrouping grouping, const TimeWindow& window = {}) const;
    bool hasCallStacks() const;
};

// `analysis`: the trace's GPU analysis (default options), whose tree is
// shared; null builds the tree here.
std::unique_ptr<const DeviceOpData>
makeDeviceOpData(std::shared_ptr<const Trace> trace,
                 std::shared_ptr<const GpuTraceAnalysis> analysis = nullptr);

} // namespace ts::gui
