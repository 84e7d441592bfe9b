#pragma once
// The Memory view of a trace (the TensorBoard plugin's, docs/gpu-traces.md):
// per device the allocated/reserved curve with its peak, the allocations
// (allocation matched with its release by address) and the per-operator
// statistics; a time range narrows the two tables, never the curve.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/KinetoEvents.h"
#include "analysis/MemoryStats.h"

namespace ts {

struct MemoryPoint {
    int64_t t_ns = 0;
    int64_t allocated = 0;
    int64_t reserved = -1; // -1 unknown (Trainscope's own samples)
};

struct MemoryAllocation {
    std::string op; // memoryOpLabel
    int64_t bytes = 0;
    std::optional<int64_t> allocated_ns, released_ns; // none: outside the records

    std::optional<int64_t> lifetimeNs() const {
        if (!allocated_ns || !released_ns) return std::nullopt;
        return *released_ns - *allocated_ns;
    }
};

struct DeviceMemoryView {
    std::string name; // "CPU", "GPU0"
    std::vector<MemoryPoint> curve;
    // The device's records carry no "Total Allocated" (Kineto before PyTorch
    // 1.10): `curve` is the running sum of their bytes, the memory allocated
    // since the trace began, not what was in use (RunningAllocated.h); its
    // reserved values are unknown (-1). The plugin shows no curve then.
    bool net_since_start = false;
    int64_t peak_allocated = 0, peak_t_ns = 0; // the first highest point; 0, 0 without a curve
    std::vector<MemoryOpRow> operators;
    std::vector<MemoryAllocation> allocations;
};

struct MemoryView {
    std::vector<DeviceMemoryView> devices;
    // From Trainscope's own samples: no addresses, so allocations are never
    // matched with their release (released_ns stays empty) and releases are
    // not listed.
    bool own_samples = false;
    bool empty() const { return devices.empty(); }
};

// The curve of one device: records with an address and both totals (the
// plugin's rule), or every own sample. When no record of the device has
// them, every record with the running sum of bytes and `net_since_start`
// set (when given).
std::vector<MemoryPoint> memoryCurve(const MemoryRecords& all, int32_t device,
                                     bool* net_since_start = nullptr);
// The allocation table of one device over the records in `range`, in the
// plugin's order: matched pairs by release time, then unmatched allocations,
// then unmatched releases.
std::vector<MemoryAllocation> memoryAllocations(const Trace& trace, const DeviceOpTree& tree,
                                                const MemoryRecords& all, int32_t device,
                                                const MemoryTimeRange& range = {});

// The plugin's step plot: before each point, one at its time holding the
// previous values (2n - 1 points), so lines draw as steps.
std::vector<MemoryPoint> stepPlot(const std::vector<MemoryPoint>& curve);
// At most `max_points` (>= 4): per time bucket its lowest and highest point,
// plus the first and last, so the peak and the troughs survive.
std::vector<MemoryPoint> downsampleCurve(const std::vector<MemoryPoint>& curve, size_t max_points);

MemoryView computeMemoryView(const Trace& trace, const DeviceOpTree& tree,
                             const MemoryTimeRange& range = {});
// Builds the operator tree first.
MemoryView computeMemoryView(const Trace& trace, const MemoryTimeRange& range = {},
                             const GpuAnalysisOptions& options = {});

} // namespace ts
