#include "trace/TraceIndexCheck.h"

namespace ts {

namespace {

bool inRange(int64_t index, size_t size, bool none_allowed = true) {
    return (none_allowed && index == -1) || (index >= 0 && static_cast<uint64_t>(index) < size);
}

std::string eventProblem(const Trace& t, size_t i) {
    const TraceEvent& e = t.events[i];
    const size_t n = t.events.size();
    if (e.name >= t.names.size()) return "an event's name is out of range";
    if (!inRange(e.lane, t.lanes.size(), false)) return "an event's lane is out of range";
    if (i > 0 && e.lane < t.events[i - 1].lane) return "events are not grouped by lane";
    if (e.parent != -1 &&
        !(e.parent >= 0 && static_cast<size_t>(e.parent) < i && t.events[e.parent].lane == e.lane))
        return "an event's parent is out of range";
    if (e.depth < 0) return "an event's depth is negative";
    if (e.dur_ns < 0) return "an event's duration is negative";
    // Every reader of events computes start + duration; a sound trace spans
    // far less than 2^62 ns (146 years).
    constexpr int64_t kTimeLimit = int64_t(1) << 62;
    if (e.start_ns < -kTimeLimit || e.start_ns > kTimeLimit || e.dur_ns > kTimeLimit)
        return "an event's time is out of range";
    if (!inRange(e.link, n)) return "an event's link is out of range";
    for (int32_t s : {e.shapes, e.types, e.args})
        if (!inRange(s, t.strings.size())) return "an event's string is out of range";
    if (static_cast<uint8_t>(e.kind) > static_cast<uint8_t>(EventKind::Python))
        return "an event's kind is unknown";
    return {};
}

template <typename Row> std::string rowsProblem(const std::vector<Row>& rows, size_t n) {
    for (size_t i = 0; i < rows.size(); ++i) {
        if (!inRange(rows[i].event, n, false)) return "a side table names no event";
        if (i > 0 && rows[i].event < rows[i - 1].event) return "a side table is out of order";
    }
    return {};
}

std::string kinetoProblem(const Trace& t) {
    const KinetoInfo& k = t.kineto;
    const size_t n = t.events.size();
    if (!k.category.empty() && k.category.size() != n) return "categories and events differ";
    for (KinetoCategory c : k.category)
        if (static_cast<uint8_t>(c) > static_cast<uint8_t>(KinetoCategory::Other))
            return "an event's category is unknown";
    if (std::string p = rowsProblem(k.ids, n); !p.empty()) return p;
    if (std::string p = rowsProblem(k.launches, n); !p.empty()) return p;
    for (size_t i = 0; i < k.call_stacks.size(); ++i) {
        const auto& [event, text] = k.call_stacks[i];
        if (!inRange(event, n, false) || !inRange(text, t.strings.size(), false))
            return "a call stack is out of range";
        if (i > 0 && event < k.call_stacks[i - 1].first) return "call stacks are out of order";
    }
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
    for (const MemorySample& m : t.memory)
        if (!inRange(m.event, t.events.size())) return "a memory sample's event is out of range";
    return kinetoProblem(t);
}

} // namespace ts
