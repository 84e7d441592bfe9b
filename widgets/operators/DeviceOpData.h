#pragma once
// What the Operators tab keeps of a torch.profiler (Kineto) trace: its
// operator tree, built once per trace so that regrouping the table only
// re-aggregates it, whether the trace has device time, and the operators by
// name, shapes and call stack that the call-stack pane reads.
#include <memory>

#include "analysis/DeviceOpStats.h"
#include "trace/Trace.h"

namespace ts::gui {

// Does the tab show `trace` as the plugin's Operator view (else as OpStats)?
bool isKinetoTrace(const Trace& trace);

struct DeviceOpData {
    std::shared_ptr<const Trace> trace;
    DeviceOpTree tree;
    bool by_device = false;
    DeviceOpTable by_stack; // grouped by name, input shapes and call stack

    DeviceOpTable table(DeviceOpGrouping grouping) const;
    bool hasCallStacks() const;
};

std::unique_ptr<const DeviceOpData> makeDeviceOpData(std::shared_ptr<const Trace> trace);

} // namespace ts::gui
