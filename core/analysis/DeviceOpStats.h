#pragma once
// The Operators view of a Kineto trace: the real operators of the operator
// tree (no ProfilerStep, DataLoader, Optimizer.*, user annotations, runtime
// calls) aggregated by name, input shapes and/or call stack, with host and
// device self/total times and Tensor-Core use. Sorted by device self time
// when the trace has device time, else by host self time.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/DeviceOpTree.h"
#include "analysis/TimeWindow.h"

namespace ts {

enum class DeviceOpGrouping { Name, NameAndShapes, NameAndStack, NameShapesAndStack };

struct DeviceOpRow {
    std::string name;
    std::string shapes;     // "[[2, 8, 5], []]" when grouped by shapes ("[]" if unrecorded)
    std::string call_stack; // when grouped by call stack ("" if unrecorded)
    int64_t calls = 0;
    int64_t host_total_ns = 0, host_self_ns = 0;
    int64_t device_total_ns = 0, device_self_ns = 0;
    int64_t tc_total_ns = 0, tc_self_ns = 0;
    bool tc_eligible = false;    // of the first call
    bool has_call_stack = false; // some call of this name (and shapes) has one

    double tcSelfRatio() const {
        return device_self_ns ? double(tc_self_ns) / double(device_self_ns) : 0;
    }
    double tcTotalRatio() const {
        return device_total_ns ? double(tc_total_ns) / double(device_total_ns) : 0;
    }
};

struct DeviceOpTable {
    std::vector<DeviceOpRow> rows;
    bool by_device = false; // sorted by device self time (else host self time)
};

// `by_device`: the trace has kernels, memcpy or memset (GpuOverview);
// `window`: the operator calls that start in it (default: all).
DeviceOpTable computeDeviceOpTable(const Trace& trace, const DeviceOpTree& tree,
                                   DeviceOpGrouping grouping, bool by_device,
                                   const TimeWindow& window = {});

} // namespace ts
