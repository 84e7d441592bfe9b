#include "analysis/OpMemory.h"

#include "trace/LaneIndex.h"

namespace ts {
namespace {

// As the reader once added them to the event store: wrapping (two's
// complement), an allocation to the allocated bytes, a release to the freed.
void add(OpMemory& m, int64_t bytes) {
    const auto u = static_cast<uint64_t>(bytes);
    if (bytes > 0)
        m.alloc_bytes = static_cast<int64_t>(static_cast<uint64_t>(m.alloc_bytes) + u);
    else
        m.free_bytes = static_cast<int64_t>(static_cast<uint64_t>(m.free_bytes) - u);
}

} // namespace

std::vector<OpMemory> opMemory(const Trace& trace) {
    const EventStore& events = trace.events;
    std::vector<OpMemory> out(events.size());
    for (size_t i = 0; i < events.size(); ++i) {
        const TraceEvent e = events[i];
        out[i] = OpMemory{e.alloc_bytes, e.free_bytes};
    }
    if (trace.kineto.memory.empty()) return out;
    const LaneIndex lanes(trace);
    for (const DeviceMemoryEvent& m : trace.kineto.memory) {
        if (!m.countsTowardsOp()) continue;
        const int32_t event = lanes.innermostAt(m.lane, m.t_ns);
        if (event >= 0) add(out[size_t(event)], m.bytes);
    }
    return out;
}

OpMemory opMemoryOf(const Trace& trace, int32_t event) {
    if (event < 0 || size_t(event) >= trace.events.size()) return {};
    const TraceEvent e = trace.events[size_t(event)];
    OpMemory out{e.alloc_bytes, e.free_bytes};
    if (trace.kineto.memory.empty()) return out;
    const LaneIndex lanes(trace);
    for (const DeviceMemoryEvent& m : trace.kineto.memory)
        if (m.countsTowardsOp() && m.lane == e.lane && m.t_ns >= e.start_ns &&
            m.t_ns <= e.end_ns() && lanes.innermostAt(m.lane, m.t_ns) == event)
            add(out, m.bytes);
    return out;
}

} // namespace ts
