#pragma once
// What lies inside an area of the timeline (a time range across some lanes,
// or a step, an annotation instance, a module call): per lane and overall,
// each name's count, total, self time, time inside the area, mean, min and
// max; the Overview's categories over the range; the share of the range a
// GPU was busy; the memory allocated and freed in it. Perfetto's area
// selection, with the TensorBoard plugin's categories.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/GpuOverview.h"
#include "trace/Trace.h"

namespace ts {

struct TraceArea {
    int64_t start_ns = 0, end_ns = 0; // [start, end)
    std::vector<int32_t> lanes;       // empty: every lane
};

// An event kind as the area groups them.
enum class AreaKind : uint8_t { Operator, Kernel, Runtime, Memcpy, Annotation, Other };
const char* toString(AreaKind kind); // "operator", "kernel", "runtime", "memcpy/memset", ...
AreaKind areaKindOf(EventKind kind);

struct AreaRow {
    uint32_t name = 0;
    AreaKind kind = AreaKind::Other;
    int32_t lane = -1; // -1: every lane of the area (the overall rows)
    int64_t count = 0;
    int64_t total_ns = 0;  // whole durations of the events that overlap the area
    int64_t self_ns = 0;   // their durations less their children's
    int64_t inside_ns = 0; // the part of them inside [start, end)
    int64_t min_ns = 0, max_ns = 0;
    std::vector<int32_t> events; // in store order

    double meanNs() const { return count ? double(total_ns) / double(count) : 0; }
};

struct AreaMemory {
    std::string device; // "cpu", "cuda0"
    int64_t allocated_bytes = 0, freed_bytes = 0, records = 0;
};

// The Overview's time ranges per category (GpuOverview::roles), made once
// per trace: the area's categories are split from them.
struct AreaRoles {
    std::array<RangeList, 8> roles; // GpuRole Kernel .. Other (Other unused)
};
AreaRoles computeAreaRoles(const Trace& trace);

struct AreaSummary {
    TraceArea area;
    size_t lanes = 0;             // lanes looked at
    int64_t events = 0;           // events that overlap the area
    std::vector<AreaRow> by_lane; // by (lane, name), each lane's by inside time
    std::vector<AreaRow> overall; // by name, by inside time
    // The range split like an Overview step (Kernel > Memcpy > ... > Other);
    // [Total] is the range's length. Empty without roles.
    std::array<int64_t, kGpuRoleCount> categories_ns{};
    double gpu_busy = 0; // share of the range with any kernel, copy or set running
    bool has_gpu = false;
    std::vector<AreaMemory> memory;
};

// `roles` may be null (no categories, no GPU share).
AreaSummary summarizeArea(const Trace& trace, const TraceArea& area, const AreaRoles* roles);

} // namespace ts
