#include "analysis/OpStats.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "analysis/OpMemory.h"

namespace ts {

double OpStat::gflopsPerSec() const {
    const int64_t ns = self_device_ns > 0 ? self_device_ns : self_cpu_ns;
    return ns > 0 ? flops / static_cast<double>(ns) : 0; // FLOP per ns = GFLOP/s
}

namespace {

// a + b, held at the int64 limits: sums of times and bytes read from files
// that claim absurd values (a fuzzed trace index) must not overflow.
int64_t saturatingAdd(int64_t a, int64_t b) {
    int64_t sum = 0;
    if (!__builtin_add_overflow(a, b, &sum)) return sum;
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

int64_t saturatingSub(int64_t a, int64_t b) {
    int64_t difference = 0;
    if (!__builtin_sub_overflow(a, b, &difference)) return difference;
    return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

void addTo(int64_t& total, int64_t value) {
    total = saturatingAdd(total, value);
}

// Per-event quantities that need the nesting: time and device time of the
// direct children, memory of the whole subtree, and whether the event runs
// inside autograd's backward pass.
struct EventTotals {
    std::vector<int64_t> child_ns, child_device_ns, self_mem, subtree_mem;
    std::vector<char> backward;
};

EventTotals eventTotals(const Trace& trace) {
    const size_t n = trace.events.size();
    EventTotals t;
    t.child_ns.assign(n, 0);
    t.child_device_ns.assign(n, 0);
    t.self_mem.assign(n, 0);
    t.subtree_mem.assign(n, 0);
    t.backward.assign(n, 0);
    {
        const std::vector<OpMemory> memory = opMemory(trace);
        for (size_t i = 0; i < n; ++i)
            t.self_mem[i] = saturatingSub(memory[i].alloc_bytes, memory[i].free_bytes);
    }
    for (size_t i = 0; i < n; ++i) { // parents precede children
        const EventCore& e = trace.events.core(i);
        t.backward[i] = e.kind == EventKind::Backward || (e.parent >= 0 && t.backward[e.parent]);
    }
    for (size_t i = n; i-- > 0;) { // children are complete before their parent
        const TraceEvent& e = trace.events[i];
        addTo(t.subtree_mem[i], t.self_mem[i]);
        if (e.parent < 0) continue;
        addTo(t.child_ns[e.parent], e.dur_ns);
        addTo(t.child_device_ns[e.parent], e.device_ns);
        addTo(t.subtree_mem[e.parent], t.subtree_mem[i]);
    }
    return t;
}

// Runtime calls, the profiler's steps and range, DataLoader and Python
// ranges are no operators (Kineto traces): they stay out of the table, as
// in torch.profiler's TensorBoard plugin. Annotations of Trainscope's own
// traces (forward, backward, ...) stay in.
bool isOperatorRow(EventKind kind) {
    switch (kind) {
    case EventKind::Runtime:
    case EventKind::ProfilerStep:
    case EventKind::ProfilerRange:
    case EventKind::DataLoader:
    case EventKind::Python:
        return false;
    default:
        return true;
    }
}

// The row of an event: its name index, and with `by_shapes` its shapes
// index, where no shapes and empty shapes are one (as their text is).
uint64_t rowKey(const Trace& trace, const TraceEvent& e, bool by_shapes) {
    uint64_t shapes = 0;
    if (by_shapes && e.shapes >= 0 && !trace.stringAt(e.shapes).empty())
        shapes = uint64_t(uint32_t(e.shapes)) + 1;
    return uint64_t(e.name) << 32 | shapes;
}

bool inScope(OpScope scope, bool backward) {
    return scope == OpScope::All || (scope == OpScope::Backward) == backward;
}

} // namespace

OpTable computeOpStats(const Trace& trace, OpGrouping grouping, OpScope scope,
                       const TimeWindow& window) {
    const EventTotals totals = eventTotals(trace);
    OpTable table;
    // Rows keyed by the interned name and shapes indices, not their text:
    // hashing two strings per event was most of the table's time on a
    // trace of millions of events.
    std::unordered_map<uint64_t, size_t> rows;
    std::vector<char> all_backward;
    const bool by_shapes = grouping == OpGrouping::NameAndShapes;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const bool backward = totals.backward[i];
        // The cheap core record first: runtime calls are a third of a Kineto trace.
        const EventCore& core = trace.events.core(i);
        if (!isOperatorRow(core.kind) || !inScope(scope, backward) ||
            !window.contains(core.start_ns))
            continue;
        const TraceEvent e = trace.events[i];
        auto [it, added] = rows.emplace(rowKey(trace, e, by_shapes), table.rows.size());
        if (added) {
            OpStat row;
            row.name = trace.nameOf(e);
            if (by_shapes) row.shapes = trace.shapesOf(e);
            table.rows.push_back(row);
            all_backward.push_back(1);
        }
        OpStat& row = table.rows[it->second];
        all_backward[it->second] &= backward ? 1 : 0;
        row.calls++;
        const bool device_lane = e.lane >= 0 && static_cast<size_t>(e.lane) < trace.lanes.size() &&
                                 trace.lanes[e.lane].device;
        if (device_lane) {
            addTo(row.self_device_ns, e.dur_ns);
            addTo(row.device_total_ns, e.dur_ns);
        } else {
            addTo(row.self_cpu_ns,
                  std::max<int64_t>(0, saturatingSub(e.dur_ns, totals.child_ns[i])));
            addTo(row.cpu_total_ns, e.dur_ns);
            addTo(row.self_device_ns,
                  std::max<int64_t>(0, saturatingSub(e.device_ns, totals.child_device_ns[i])));
            addTo(row.device_total_ns, e.device_ns);
        }
        addTo(row.self_cpu_mem_bytes, totals.self_mem[i]);
        addTo(row.cpu_mem_bytes, totals.subtree_mem[i]);
        row.flops += e.flops;
        row.bytes += e.bytes;
    }
    for (size_t r = 0; r < table.rows.size(); ++r) {
        table.rows[r].backward = all_backward[r] != 0;
        table.total_self_cpu_ns += table.rows[r].self_cpu_ns;
        table.total_self_device_ns += table.rows[r].self_device_ns;
    }
    std::stable_sort(table.rows.begin(), table.rows.end(), [](const OpStat& a, const OpStat& b) {
        if (a.self_cpu_ns != b.self_cpu_ns) return a.self_cpu_ns > b.self_cpu_ns;
        return a.name < b.name;
    });
    return table;
}

} // namespace ts
