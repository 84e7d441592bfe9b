#pragma once
// The memory records of a trace, attributed to operators as the TensorBoard
// plugin's Memory view does: each record counts for the deepest node of its
// thread's operator tree whose [start, end) holds its time, and only if that
// node is a real operator. Kineto traces give "[memory]" instants (CPU and
// GPU, with addresses and device totals); Trainscope's own traces give CPU
// samples (live bytes and the change, no addresses). The input of the
// Memory view's curve, allocation table and per-operator statistics.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "analysis/DeviceOpTree.h"

namespace ts {

// [start_ns, end_ns): times relative to Trace::origin_ns. Half-open, unlike
// the plugin's [start, end], so that adjacent ranges never count a record twice.
struct MemoryTimeRange {
    int64_t start_ns = std::numeric_limits<int64_t>::min();
    int64_t end_ns = std::numeric_limits<int64_t>::max();

    bool contains(int64_t t) const { return t >= start_ns && t < end_ns; }
    // The plugin's node filter (skip nodes ending before the range or
    // starting after it), with the end exclusive.
    bool touches(int64_t start, int64_t end) const { return end >= start_ns && start < end_ns; }
};

struct MemoryRecord {
    int64_t t_ns = 0;
    int32_t device = -1;    // index into MemoryRecords::devices
    int64_t addr = -1;      // -1: none (Trainscope's own samples, traces before PyTorch 1.10)
    int64_t bytes = 0;      // > 0 an allocation, <= 0 a release
    int64_t allocated = -1; // the device's totals after the record, -1 unknown
    int64_t reserved = -1;
    int32_t node = -1;  // the real operator (DeviceOpTree node) it counts for, -1 none
    int32_t event = -1; // Trace::events index naming its operator, -1 unknown
};

struct MemoryRecords {
    std::vector<std::string> devices;  // "CPU", "GPU0", ... sorted by name
    std::vector<MemoryRecord> records; // by time, stable
    std::vector<uint8_t> reached;      // per tree node: some record's descent entered it
    std::vector<int32_t> parent;       // per tree node: its parent node, -1 for roots
    bool own_samples = false;          // from Trace::memory: no addresses, no reserved bytes

    bool empty() const { return records.empty(); }
};

// From trace.kineto.memory when the trace has "[memory]" instants, else from
// trace.memory (device "CPU"). Records of unknown device types are left out.
MemoryRecords collectMemoryRecords(const Trace& trace, const DeviceOpTree& tree);

// The allocation table's operator label: "<unknown>" without an operator;
// "parent (aten::empty...)" for aten::empty* ops with a known parent, since an
// empty tensor is allocated on behalf of the op that called it.
std::string memoryOpLabel(const Trace& trace, const DeviceOpTree& tree, const MemoryRecords& all,
                          const MemoryRecord& record);

} // namespace ts
