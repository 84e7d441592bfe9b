#include "analysis/AreaSummary.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/KinetoEvents.h"
#include "analysis/LaunchLinks.h"
#include "trace/LaneIndex.h"

namespace ts {
namespace {

// The lane's events that overlap [start, end), and the extent to read for
// their children (self time): from the top-level event open at `start`
// to the end of the last one that starts before `end`.
struct LaneScan {
    size_t first = 0, last = 0; // [first, last) of Trace::events
};

LaneScan scanOf(const Trace& t, const LaneIndex& index, int32_t lane, int64_t start, int64_t end) {
    size_t first = index.firstStartingFrom(lane, start);
    // Events open at `start` began before it: the chain above the innermost.
    for (int32_t open = index.innermostAt(lane, start); open >= 0;
         open = t.events.core(size_t(open)).parent)
        first = std::min(first, size_t(open));
    size_t last = index.firstStartingFrom(lane, end);
    // Children of the last events may run past `end`: read to their parents' end.
    int64_t reach = end;
    for (size_t i = first; i < last; ++i)
        reach = std::max(reach, t.events.core(i).end_ns());
    last = index.firstStartingFrom(lane, reach);
    return {first, last};
}

struct RowKey {
    int32_t lane;
    uint32_t name;
    bool operator==(const RowKey& o) const { return lane == o.lane && name == o.name; }
};
struct RowKeyHash {
    size_t operator()(const RowKey& k) const {
        return std::hash<uint64_t>()((uint64_t(uint32_t(k.lane)) << 32) | k.name);
    }
};

void add(AreaRow& row, const EventCore& e, int32_t event, int64_t self, int64_t inside) {
    row.min_ns = row.count ? std::min(row.min_ns, e.dur_ns) : e.dur_ns;
    row.max_ns = row.count ? std::max(row.max_ns, e.dur_ns) : e.dur_ns;
    ++row.count;
    row.total_ns += e.dur_ns;
    row.self_ns += self;
    row.inside_ns += inside;
    row.events.push_back(event);
}

std::vector<AreaRow> sortedRows(std::unordered_map<RowKey, AreaRow, RowKeyHash>& rows) {
    std::vector<AreaRow> out;
    out.reserve(rows.size());
    for (auto& [key, row] : rows)
        out.push_back(std::move(row));
    std::sort(out.begin(), out.end(), [](const AreaRow& a, const AreaRow& b) {
        if (a.lane != b.lane) return a.lane < b.lane;
        if (a.inside_ns != b.inside_ns) return a.inside_ns > b.inside_ns;
        return a.name < b.name;
    });
    for (AreaRow& r : out)
        std::sort(r.events.begin(), r.events.end());
    return out;
}

void summarizeLane(const Trace& t, const LaneIndex& index, int32_t lane, const TraceArea& a,
                   std::unordered_map<RowKey, AreaRow, RowKeyHash>& by_lane,
                   std::unordered_map<RowKey, AreaRow, RowKeyHash>& overall, int64_t& events) {
    const LaneScan scan = scanOf(t, index, lane, a.start_ns, a.end_ns);
    // Children's time by parent, over the whole extent read.
    std::unordered_map<int32_t, int64_t> children;
    for (size_t i = scan.first; i < scan.last; ++i) {
        const EventCore& e = t.events.core(i);
        if (e.parent >= 0) children[e.parent] += e.dur_ns;
    }
    for (size_t i = scan.first; i < scan.last; ++i) {
        const EventCore& e = t.events.core(i);
        const int64_t inside = std::min(e.end_ns(), a.end_ns) - std::max(e.start_ns, a.start_ns);
        // Overlapping, or a zero-length event inside.
        if (!(inside > 0 || (e.dur_ns == 0 && e.start_ns >= a.start_ns && e.start_ns < a.end_ns)))
            continue;
        const auto c = children.find(int32_t(i));
        const int64_t self = e.dur_ns - (c == children.end() ? 0 : c->second);
        const AreaKind kind = areaKindOf(e.kind);
        AreaRow& row = by_lane[{lane, e.name}];
        row.name = e.name, row.kind = kind, row.lane = lane;
        add(row, e, int32_t(i), self, std::max<int64_t>(inside, 0));
        AreaRow& all = overall[{-1, e.name}];
        all.name = e.name, all.kind = kind;
        add(all, e, int32_t(i), self, std::max<int64_t>(inside, 0));
        ++events;
    }
}

// The range split by the Overview's priority (Kernel > Memcpy > ... > CPU
// Exec), the rest Other: how a step's costs are split, for any range.
void splitCategories(const AreaRoles& roles, AreaSummary& s) {
    const TraceArea& a = s.area;
    RangeList slots{{a.start_ns, a.end_ns}};
    for (size_t r = 0; r < 7; ++r) {
        const RangeList range = intersectRanges(slots, roles.roles[r]);
        s.categories_ns[r] = totalLength(range);
        slots = subtractRanges(slots, range);
    }
    s.categories_ns[7] = totalLength(slots);
    s.categories_ns[8] = a.end_ns - a.start_ns;
    RangeList device;
    for (GpuRole r : {GpuRole::Kernel, GpuRole::Memcpy, GpuRole::Memset, GpuRole::Communication}) {
        const RangeList& role = roles.roles[size_t(r)];
        s.has_gpu = s.has_gpu || !role.empty();
        device.insert(device.end(), role.begin(), role.end());
    }
    const int64_t length = a.end_ns - a.start_ns;
    if (length > 0)
        s.gpu_busy = double(lengthWithin(mergeRanges(std::move(device)), a.start_ns, a.end_ns)) /
                     double(length);
}

std::string memoryDevice(const DeviceMemoryEvent& m) {
    if (m.device_type == 1) return "cuda" + std::to_string(std::max<int>(m.device_id, 0));
    return m.device_type <= 0 ? "cpu" : "device " + std::to_string(m.device_type);
}

void summarizeMemory(const Trace& t, const std::vector<uint8_t>& in_area, AreaSummary& s) {
    std::map<std::string, AreaMemory> by_device;
    auto add = [&](const std::string& device, int64_t bytes) {
        AreaMemory& m = by_device[device];
        m.device = device;
        (bytes > 0 ? m.allocated_bytes : m.freed_bytes) += bytes > 0 ? bytes : -bytes;
        ++m.records;
    };
    const TraceArea& a = s.area;
    auto inRange = [&](int64_t ts) { return ts >= a.start_ns && ts < a.end_ns; };
    for (const DeviceMemoryEvent& m : t.kineto.memory)
        if (inRange(m.t_ns) && (m.lane < 0 || in_area[size_t(m.lane)]))
            add(memoryDevice(m), m.bytes);
    for (const MemorySample& m : t.memory) {
        const int32_t lane = m.event >= 0 ? t.events.core(size_t(m.event)).lane : -1;
        if (inRange(m.t_ns) && (lane < 0 || in_area[size_t(lane)])) add("cpu", m.delta_bytes);
    }
    for (auto& [device, m] : by_device)
        s.memory.push_back(m);
}

} // namespace

const char* toString(AreaKind kind) {
    switch (kind) {
    case AreaKind::Operator:
        return "operator";
    case AreaKind::Kernel:
        return "kernel";
    case AreaKind::Runtime:
        return "runtime";
    case AreaKind::Memcpy:
        return "memcpy/memset";
    case AreaKind::Annotation:
        return "annotation";
    case AreaKind::Other:
        break;
    }
    return "other";
}

AreaKind areaKindOf(EventKind kind) {
    switch (kind) {
    case EventKind::Operator:
    case EventKind::Backward:
        return AreaKind::Operator;
    case EventKind::Kernel:
    case EventKind::Communication:
        return AreaKind::Kernel;
    case EventKind::Runtime:
        return AreaKind::Runtime;
    case EventKind::Memcpy:
    case EventKind::Memset:
        return AreaKind::Memcpy;
    case EventKind::Annotation:
    case EventKind::ProfilerStep:
    case EventKind::ProfilerRange:
        return AreaKind::Annotation;
    default:
        return AreaKind::Other;
    }
}

AreaRoles computeAreaRoles(const Trace& trace) {
    const GpuAnalysisOptions options;
    const KinetoEvents events = collectKinetoEvents(trace, options);
    const LaunchLinks links = linkLaunches(trace, events);
    AreaRoles out;
    out.roles = computeGpuOverview(trace, events, links, options, true).roles;
    return out;
}

AreaSummary summarizeArea(const Trace& trace, const TraceArea& area, const AreaRoles* roles) {
    AreaSummary s;
    s.area = area;
    if (area.end_ns <= area.start_ns) return s;
    std::vector<uint8_t> in_area(trace.lanes.size(), area.lanes.empty() ? 1 : 0);
    for (int32_t lane : area.lanes)
        if (lane >= 0 && size_t(lane) < in_area.size()) in_area[size_t(lane)] = 1;
    const LaneIndex index(trace);
    std::unordered_map<RowKey, AreaRow, RowKeyHash> by_lane, overall;
    for (size_t lane = 0; lane < in_area.size(); ++lane) {
        if (!in_area[lane]) continue;
        ++s.lanes;
        summarizeLane(trace, index, int32_t(lane), area, by_lane, overall, s.events);
    }
    s.by_lane = sortedRows(by_lane);
    s.overall = sortedRows(overall);
    if (roles) splitCategories(*roles, s);
    summarizeMemory(trace, in_area, s);
    return s;
}

} // namespace ts
