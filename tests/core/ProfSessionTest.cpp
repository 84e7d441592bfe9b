// ProfileSession: what the RecordFunction collector records, and when.
#include <gtest/gtest.h>

#include <ATen/record_function.h>
#include <torch/torch.h>

#include "ProfTestSupport.h"
#include "profiling/MemoryTracker.h"
#include "profiling/ProfileSession.h"

namespace ts {
namespace {

using test::CaptureObserver;
using test::countEvents;
using test::findEvent;
using test::profileConfig;

// One "training step": a matmul under a forward range.
void matmulStep(ProfileSession& session, int64_t step, CaptureObserver& observer) {
    session.stepBegin(step);
    {
        ProfileSession::Range range(&session, "forward");
        torch::Tensor a = torch::ones({8, 16}), b = torch::ones({16, 4});
        torch::Tensor c = torch::mm(a, b);
    }
    session.stepEnd(step, observer);
}

TEST(ProfSession, RecordsOnlyTheActiveStepsAndDeliversOneWindow) {
    ProfileConfig c = profileConfig(/*warmup=*/1, /*active=*/2);
    c.skip_first = 1;
    ProfileSession session(c, false, nullptr);
    CaptureObserver observer;
    std::vector<bool> recording;
    for (int64_t step = 10; step < 16; ++step) {
        session.stepBegin(step);
        recording.push_back(session.recording());
        torch::Tensor x = torch::mm(torch::ones({8, 16}), torch::ones({16, 4}));
        session.stepEnd(step, observer);
    }
    session.finish(observer);
    EXPECT_EQ(recording, (std::vector<bool>{false, false, true, true, false, false}));
    ASSERT_EQ(observer.captures.size(), 1u);
    const ProfileCapture& cap = observer.captures[0];
    EXPECT_EQ(cap.window, 0);
    EXPECT_EQ(cap.first_step, 12);
    EXPECT_EQ(cap.last_step, 13);
    const Trace& t = cap.trace;
    ASSERT_EQ(t.steps.size(), 2u);
    EXPECT_EQ(t.steps[0].start_ns, 0);
    EXPECT_EQ(countEvents(t, "aten::mm"), 2); // warm-up step 11 was discarded
    for (const TraceEvent& e : t.events) {
        EXPECT_TRUE(e.step == 12 || e.step == 13) << t.nameOf(e);
        EXPECT_GE(e.dur_ns, 0);
    }
    EXPECT_EQ(t.source, "trainscope");
    EXPECT_GT(t.origin_ns, 1600000000LL * 1000000000LL); // Unix time of the first step
}

TEST(ProfSession, RangesBecomeAnnotationsThatEncloseTheirOps) {
    ProfileSession session(profileConfig(0, 1), false, nullptr);
    CaptureObserver observer;
    matmulStep(session, 0, observer);
    session.finish(observer);
    ASSERT_EQ(observer.captures.size(), 1u);
    const Trace& t = observer.captures[0].trace;
    test::expectForwardEnclosesMatmul(t);
    const auto mm = findEvent(t, "aten::mm");
    ASSERT_GE(mm, 0);
    EXPECT_NE(t.stringAt(t.events[mm].types).find("float"), std::string::npos);
    EXPECT_NE(t.lanes[t.events[mm].lane].name.find("(training)"), std::string::npos);
}

TEST(ProfSession, BackwardNodesAreLinkedToTheirForwardOps) {
    ProfileSession session(profileConfig(0, 1), false, nullptr);
    CaptureObserver observer;
    session.stepBegin(0);
    torch::Tensor w = torch::ones({16, 4}, torch::requires_grad());
    torch::Tensor loss = torch::mm(torch::ones({8, 16}), w).sum();
    loss.backward();
    session.stepEnd(0, observer);
    session.finish(observer);
    ASSERT_EQ(observer.captures.size(), 1u);
    const Trace& t = observer.captures[0].trace;
    const auto mm = findEvent(t, "aten::mm");
    const auto node = findEvent(t, "MmBackward0");
    ASSERT_GE(mm, 0);
    ASSERT_GE(node, 0);
    EXPECT_EQ(t.events[node].kind, EventKind::Backward);
    EXPECT_GE(t.events[node].seq, 0);
    EXPECT_EQ(t.events[node].seq, t.events[mm].seq);
    EXPECT_EQ(t.events[node].link, mm);
    EXPECT_EQ(t.events[mm].link, node);
    // The grad matmul inside the node is an op of the backward pass.
    const auto inner = findEvent(t, "aten::mm", 1);
    ASSERT_GE(inner, 0);
    EXPECT_GT(t.events[inner].start_ns, t.events[node].start_ns);
}

TEST(ProfSession, MemoryEventsAreAttributedToTheInnermostOp) {
    auto tracker = MemoryTracker::create();
    MemoryTracker::Scope scope(tracker);
    ProfileSession session(profileConfig(0, 1), false, tracker);
    CaptureObserver observer;
    session.stepBegin(0);
    {
        torch::Tensor big = torch::zeros({1 << 20}); // 4 MiB
    }
    session.stepEnd(0, observer);
    session.finish(observer);
    ASSERT_EQ(observer.captures.size(), 1u);
    const Trace& t = observer.captures[0].trace;
    const auto empty = findEvent(t, "aten::empty");
    ASSERT_GE(empty, 0);
    EXPECT_EQ(t.events[empty].alloc_bytes, 4 << 20);
    ASSERT_GE(t.memory.size(), 2u);
    const MemorySample& first = t.memory.front();
    EXPECT_EQ(first.delta_bytes, 4 << 20);
    EXPECT_EQ(first.event, empty);
    EXPECT_EQ(t.memory.back().delta_bytes, -(4 << 20));
    EXPECT_EQ(t.memory.back().live_bytes, first.live_bytes - (4 << 20));
}

TEST(ProfSession, MaxTraceEventsCapsTheWindowWithANote) {
    ProfileConfig c = profileConfig(0, 1);
    c.max_trace_events = 10;
    ProfileSession session(c, false, nullptr);
    CaptureObserver observer;
    session.stepBegin(0);
    torch::Tensor x = torch::ones({4});
    for (int i = 0; i < 50; ++i)
        x = x + 1;
    session.stepEnd(0, observer);
    session.finish(observer);
    ASSERT_EQ(observer.captures.size(), 1u);
    const Trace& t = observer.captures[0].trace;
    EXPECT_LE(t.events.size(), 10u);
    ASSERT_FALSE(t.notes.empty());
    EXPECT_NE(t.notes[0].find("truncated to 10 events"), std::string::npos);
}

TEST(ProfSession, RetriedStepReplacesTheAbortedAttempt) {
    // The engine begins a step, finds no batch at the epoch end, ends it, and
    // begins the same global step again in the next epoch.
    ProfileSession session(profileConfig(0, 2), false, nullptr);
    CaptureObserver observer;
    matmulStep(session, 0, observer);
    session.stepBegin(1);
    session.stepEnd(1, observer); // aborted attempt
    EXPECT_TRUE(observer.captures.empty());
    matmulStep(session, 1, observer);
    matmulStep(session, 2, observer); // delivers the window
    ASSERT_EQ(observer.captures.size(), 1u);
    const Trace& t = observer.captures[0].trace;
    EXPECT_EQ(observer.captures[0].last_step, 1);
    EXPECT_EQ(t.steps.size(), 2u);
    EXPECT_EQ(countEvents(t, "aten::mm"), 2);
    session.finish(observer);
    EXPECT_EQ(observer.captures.size(), 1u);
}

TEST(ProfSession, FinishFlushesAWindowCutShort) {
    ProfileSession session(profileConfig(0, 5), false, nullptr);
    CaptureObserver observer;
    matmulStep(session, 0, observer);
    matmulStep(session, 1, observer);
    session.finish(observer);
    ASSERT_EQ(observer.captures.size(), 1u);
    const auto& notes = observer.captures[0].trace.notes;
    ASSERT_FALSE(notes.empty());
    EXPECT_NE(notes.back().find("2 of 5 active steps"), std::string::npos);
}

TEST(ProfSession, CallbacksAreInstalledOnlyWhileAWindowIsCollected) {
    ASSERT_FALSE(at::hasGlobalCallbacks());
    ProfileConfig c = profileConfig(1, 1);
    c.skip_first = 1;
    ProfileSession session(c, false, nullptr);
    CaptureObserver observer;
    std::vector<bool> installed;
    for (int64_t step = 0; step < 4; ++step) {
        session.stepBegin(step);
        installed.push_back(at::hasGlobalCallbacks());
        session.stepEnd(step, observer);
    }
    EXPECT_EQ(installed, (std::vector<bool>{false, true, true, false}));
    session.finish(observer);
    EXPECT_FALSE(at::hasGlobalCallbacks());
}

TEST(ProfSession, ASecondConcurrentSessionWarnsInsteadOfCollecting) {
    ProfileSession first(profileConfig(0, 2), false, nullptr);
    ProfileSession second(profileConfig(0, 1), false, nullptr);
    CaptureObserver a, b;
    first.stepBegin(0);
    second.stepBegin(0);
    EXPECT_FALSE(second.recording());
    second.stepEnd(0, b);
    first.stepEnd(0, a);
    first.finish(a);
    second.finish(b);
    ASSERT_EQ(b.messages.size(), 1u);
    EXPECT_NE(b.messages[0].find("already collecting"), std::string::npos);
    EXPECT_TRUE(b.captures.empty());
    EXPECT_EQ(a.captures.size(), 1u);
}

TEST(ProfSession, DisabledSessionDoesNothing) {
    ProfileConfig c = profileConfig(0, 1);
    c.enabled = false;
    ProfileSession session(c, false, nullptr);
    CaptureObserver observer;
    matmulStep(session, 0, observer);
    EXPECT_FALSE(session.recording());
    session.finish(observer);
    EXPECT_TRUE(observer.captures.empty());
    EXPECT_FALSE(at::hasGlobalCallbacks());
}

TEST(ProfSession, ARunEndingBeforeTheFirstWindowSaysSo) {
    ProfileConfig c = profileConfig(0, 2);
    c.skip_first = 10;
    ProfileSession session(c, false, nullptr);
    CaptureObserver observer;
    for (int64_t step = 0; step < 4; ++step) {
        session.stepBegin(step);
        session.stepEnd(step, observer);
    }
    session.finish(observer);
    EXPECT_TRUE(observer.captures.empty());
    ASSERT_EQ(observer.messages.size(), 1u);
    EXPECT_NE(observer.messages[0].find("ended after 4 step(s)"), std::string::npos)
        << observer.messages[0];
    EXPECT_NE(observer.messages[0].find("step 11"), std::string::npos) << observer.messages[0];
}

} // namespace
} // namespace ts
