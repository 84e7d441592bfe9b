#pragma once
// Shared by the profiler tests (Prof*, OpStats*, Trace*): hand-built traces,
// an observer that keeps what the profiler delivers, and profile configs.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "config/ExperimentConfig.h"
#include "records/TrainerObserver.h"
#include "trace/Trace.h"

namespace ts::test {

// Appends one event (times in ns) and returns its index before finalize().
inline int32_t addEvent(Trace& trace, const std::string& name, EventKind kind, int64_t start,
                        int64_t dur, int32_t lane = 0, int64_t seq = -1,
                        const std::string& shapes = "") {
    while (trace.lanes.size() <= static_cast<size_t>(lane))
        trace.lanes.push_back(TraceLane{"thread " + std::to_string(trace.lanes.size()),
                                        100 + static_cast<int64_t>(trace.lanes.size()), false});
    TraceEvent e;
    e.name = trace.internName(name);
    e.kind = kind;
    e.lane = lane;
    e.start_ns = start;
    e.dur_ns = dur;
    e.seq = seq;
    if (!shapes.empty()) e.shapes = trace.internString(shapes);
    trace.events.push_back(e);
    return static_cast<int32_t>(trace.events.size() - 1);
}

// Operators A [0,100) > B [10,40) > C [20,30); A > D [50,90); B again
// [200,220), B's two calls with different input shapes. Self times: A 30,
// B 40, C 10, D 40 (ns).
inline Trace handBuiltTrace() {
    Trace t;
    addEvent(t, "A", EventKind::Operator, 0, 100);
    addEvent(t, "B", EventKind::Operator, 10, 30, 0, -1, "[[2, 3]]");
    addEvent(t, "C", EventKind::Operator, 20, 10);
    addEvent(t, "D", EventKind::Operator, 50, 40);
    addEvent(t, "B", EventKind::Operator, 200, 20, 0, -1, "[[4, 5]]");
    t.finalize();
    return t;
}

inline int32_t findEvent(const Trace& trace, const std::string& name, int occurrence = 0) {
    for (size_t i = 0; i < trace.events.size(); ++i)
        if (trace.nameOf(trace.events[i]) == name && occurrence-- == 0)
            return static_cast<int32_t>(i);
    return -1;
}

// The "forward" annotation of a matmul step and its aten::mm inside it, the
// op's input shapes checked: what both recorders must give.
inline void expectForwardEnclosesMatmul(const Trace& t) {
    const auto range = findEvent(t, "forward");
    const auto mm = findEvent(t, "aten::mm");
    ASSERT_GE(range, 0);
    ASSERT_GE(mm, 0);
    EXPECT_EQ(t.events[range].kind, EventKind::Annotation);
    int32_t p = t.events[mm].parent;
    while (p >= 0 && p != range)
        p = t.events[p].parent;
    EXPECT_EQ(p, range);
    EXPECT_EQ(t.shapesOf(t.events[mm]), "[[8, 16], [16, 4]]");
}

inline int countEvents(const Trace& trace, const std::string& name) {
    int n = 0;
    for (const TraceEvent& e : trace.events)
        n += trace.nameOf(e) == name ? 1 : 0;
    return n;
}

class CaptureObserver : public TrainerObserver {
public:
    void onProfile(const ProfileCapture& capture) override { captures.push_back(capture); }
    void onMessage(LogLevel, const std::string& text) override { messages.push_back(text); }
    std::vector<ProfileCapture> captures;
    std::vector<std::string> messages;
};

// Records `active` steps after `warmup` warm-up steps, once.
inline ProfileConfig profileConfig(int warmup, int active, bool shapes = true, bool memory = true) {
    ProfileConfig c;
    c.enabled = true;
    c.skip_first = 0;
    c.wait = 0;
    c.warmup = warmup;
    c.active = active;
    c.repeat = 1;
    c.record_shapes = shapes;
    c.profile_memory = memory;
    c.recorder = "trainscope"; // the collector's tests; Kineto's: KinetoSessionTest
    return c;
}

} // namespace ts::test
