#include "trace/TraceIndexCheck.h"

namespace ts {

namespace {

bool inRange(int64_t index, size_t size, bool none_allowed = true) {
    return (none_allowed && index == -1) || (index >= 0 && static_cast<uint64_t>(index) < size);
}

// The core record of each event; the other columns are checked by the store.
std::string eventProblem(const Trace& t, size_t i) {
    const EventCore& e = t.events.core(i);
    if (e.name >= t.names.size()) return "an event's name is out of range";
    if (e.lane >= t.lanes.size()) return "an event's lane is out of range";
    if (i > 0 && e.lane < t.events.core(i - 1).lane) return "events are not grouped by lane";
    if (e.parent != -1 && !(e.parent >= 0 && static_cast<size_t>(e.parent) < i &&
                            t.events.core(size_t(e.parent)).lane == e.lane))
        return "an event's parent is out of range";
    if (e.depth < 0) return "an event's depth is negative";
    if (e.dur_ns < 0) return "an event's duration is negative";
    // Every reader of events computes start + duration; a sound trace spans
    // far less than 2^62 ns (146 years).
    constexpr int64_t kTimeLimit = int64_t(1) << 62;
    if (e.start_ns < -kTimeLimit || e.start_ns > kTimeLimit || e.dur_ns > kTimeLimit)
        return "an event's time is out of range";
    if (static_cast<uint8_t>(e.kind) > static_cast<uint8_t>(EventKind::Python))
        return "an event's kind is unknown";
    return {};
}

std::string kinetoProblem(const Trace& t) {
    const KinetoInfo& k = t.kineto;
    for (const DeviceMemoryEvent& m : k.memory)
        if (!inRange(m.lane, t.lanes.size())) return "a memory record's lane is out of range";
    for (const PythonFrame& f : k.python_frames)
        if (!inRange(f.name, t.names.size()) || !inRange(f.lane, t.lanes.size()))
            return "a Python frame is out of range";
    return {};
}

} // namespace

std::string traceIndexProblem(const Trace& t) {
    for (size_t i = 0; i < t.events.size(); ++i)
        if (std::string p = eventProblem(t, i); !p.empty()) return p;
    if (std::string p = t.events.columnsProblem(t.strings.size()); !p.empty()) return p;
    for (const MemorySample& m : t.memory)
        if (!inRange(m.event, t.events.size())) return "a memory sample's event is out of range";
    return kinetoProblem(t);
}

} // namespace ts
