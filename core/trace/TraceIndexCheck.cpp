#include "trace/TraceIndexCheck.h"

#include <string>

#include "util/ThreadPool.h"

namespace ts {

namespace {

bool inRange(int64_t index, size_t size, bool none_allowed = true) {
    return (none_allowed && index == -1) || (index >= 0 && static_cast<uint64_t>(index) < size);
}

// The core record of each event; the other columns are checked by the store.
// nullptr when it is sound.
const char* eventProblem(const Trace& t, size_t i) {
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
    return nullptr;
}

const char* eventsProblem(const Trace& t, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
        if (const char* p = eventProblem(t, i)) return p;
    return nullptr;
}

// Below this many events the check runs on one thread.
constexpr size_t kEventsForTwoThreads = size_t(1) << 20;

std::string kinetoProblem(const Trace& t) {
    const KinetoInfo& k = t.kineto;
    for (const DeviceMemoryEvent& m : k.memory)
        if (!inRange(m.lane, t.lanes.size())) return "a memory record's lane is out of range";
    for (const PythonFrame& f : k.python_frames)
        if (!inRange(f.name, t.names.size()) || !inRange(f.lane, t.lanes.size()))
            return "a Python frame is out of range";
    // Trace::collectiveTagOf searches them by event.
    int32_t previous = -1;
    for (const CollectiveTag& tag : k.collective_tags) {
        if (tag.event <= previous || !inRange(tag.event, t.events.size(), false) ||
            !inRange(tag.group, t.strings.size()))
            return "a collective's process group tag is out of range or order";
        previous = tag.event;
    }
    return {};
}

} // namespace

std::string traceIndexProblem(const Trace& t) {
    // A large trace's second half of events and its other columns are
    // checked on another thread: this pass was a tenth of reopening a trace.
    // The answer is the same as checking in order: the first event's
    // problem, else the columns'.
    const size_t n = t.events.size();
    const size_t half = n >= kEventsForTwoThreads ? n / 2 : n;
    std::string problems[2];
    parallelFor(2, half < n ? 2 : 1, [&](size_t part) {
        if (part == 0) {
            if (const char* p = eventsProblem(t, 0, half)) problems[0] = p;
        } else if (const char* p = eventsProblem(t, half, n)) {
            problems[1] = p;
        } else {
            problems[1] = t.events.columnsProblem(t.strings.size());
        }
    });
    for (const std::string& p : problems)
        if (!p.empty()) return p;
    for (const MemorySample& m : t.memory)
        if (!inRange(m.event, t.events.size())) return "a memory sample's event is out of range";
    return kinetoProblem(t);
}

} // namespace ts
