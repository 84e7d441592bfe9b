// ProfileSession through LibTorch's Kineto (profile.recorder "kineto"/"auto"):
// the window is the trace torch.profiler writes, read back into the same
// model; where LibTorch has no Kineto (Debian's 1.13) the collector records
// instead, and says so.
#include <gtest/gtest.h>

#include <fstream>

#include <torch/torch.h>

#include "ProfTestSupport.h"
#include "profiling/KinetoRecorder.h"
#include "profiling/MemoryTracker.h"
#include "profiling/ProfileSession.h"

namespace ts {
namespace {

using test::CaptureObserver;
using test::countEvents;
using test::findEvent;
using test::profileConfig;

ProfileConfig kinetoConfig(int warmup, int active, const char* recorder = "kineto") {
    ProfileConfig c = profileConfig(warmup, active);
    c.recorder = recorder;
    return c;
}

void matmulStep(ProfileSession& session, int64_t step, CaptureObserver& observer) {
    session.stepBegin(step);
    {
        ProfileSession::Range range(&session, "forward");
        torch::Tensor c = torch::mm(torch::ones({8, 16}), torch::ones({16, 4}));
    }
    session.stepEnd(step, observer);
}

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

#define SKIP_WITHOUT_KINETO()                                                                      \
    do {                                                                                           \
        std::string why;                                                                           \
        if (!KinetoRecorder::available(&why)) GTEST_SKIP() << why;                                 \
    } while (0)

TEST(KinetoSession, RecordsTheActiveStepsAsAKinetoTrace) {
    SKIP_WITHOUT_KINETO();
    ProfileSession session(kinetoConfig(1, 2), false, nullptr);
    ASSERT_TRUE(session.usesKineto());
    CaptureObserver observer;
    std::vector<bool> recording;
    for (int64_t step = 10; step < 14; ++step) {
        session.stepBegin(step);
        recording.push_back(session.recording());
        {
            ProfileSession::Range range(&session, "forward");
            torch::Tensor c = torch::mm(torch::ones({8, 16}), torch::ones({16, 4}));
        }
        session.stepEnd(step, observer);
    }
    session.finish(observer);
    EXPECT_EQ(recording, (std::vector<bool>{false, true, true, false}));
    ASSERT_EQ(observer.captures.size(), 1u) << ::testing::PrintToString(observer.messages);
    const ProfileCapture& cap = observer.captures[0];
    EXPECT_EQ(cap.recorder, "kineto");
    EXPECT_EQ(cap.first_step, 11);
    EXPECT_EQ(cap.last_step, 12);
    ASSERT_TRUE(cap.kineto_file);
    const std::string text = slurp(*cap.kineto_file);
    EXPECT_NE(text.find("\"traceEvents\""), std::string::npos);
    EXPECT_NE(text.find("ProfilerStep#11"), std::string::npos);
    const Trace& t = cap.trace;
    EXPECT_EQ(t.source.rfind("kineto", 0), 0u) << t.source;
    ASSERT_EQ(t.steps.size(), 2u);
    EXPECT_EQ(t.steps[0].step, 11);
    EXPECT_EQ(t.steps[1].step, 12);
    EXPECT_EQ(countEvents(t, "aten::mm"), 2); // the warm-up step's is not kept
    test::expectForwardEnclosesMatmul(t);
    const auto mm = findEvent(t, "aten::mm");
    ASSERT_GE(mm, 0);
    EXPECT_GT(t.events[mm].flops, 0); // 2 * 8 * 16 * 4
}

TEST(KinetoSession, TheTemporaryFileGoesWithTheLastCapture) {
    SKIP_WITHOUT_KINETO();
    std::filesystem::path file;
    {
        ProfileSession session(kinetoConfig(0, 1), false, nullptr);
        CaptureObserver observer;
        matmulStep(session, 0, observer);
        session.finish(observer);
        ASSERT_EQ(observer.captures.size(), 1u);
        file = *observer.captures[0].kineto_file;
        EXPECT_TRUE(std::filesystem::exists(file));
    }
    EXPECT_FALSE(std::filesystem::exists(file));
}

TEST(KinetoSession, AnAbortedAttemptStaysInsideItsStep) {
    SKIP_WITHOUT_KINETO();
    ProfileSession session(kinetoConfig(0, 2), false, nullptr);
    CaptureObserver observer;
    matmulStep(session, 0, observer);
    session.stepBegin(1);
    session.stepEnd(1, observer, /*found_batch=*/false); // the epoch ended
    matmulStep(session, 1, observer);                    // the next epoch's first batch
    ASSERT_EQ(observer.captures.size(), 1u);             // delivered as the window ends
    const Trace& t = observer.captures[0].trace;
    ASSERT_EQ(t.steps.size(), 2u);
    EXPECT_EQ(t.steps[1].step, 1);
    EXPECT_EQ(countEvents(t, "aten::mm"), 2);
    session.finish(observer);
    EXPECT_EQ(observer.captures.size(), 1u);
}

TEST(KinetoSession, MemoryEventsAreRecordedAndTheTrackerCatchesUpAfterTheWindow) {
    SKIP_WITHOUT_KINETO();
    auto tracker = MemoryTracker::create();
    MemoryTracker::Scope scope(tracker);
    ProfileSession session(kinetoConfig(0, 1), false, tracker);
    CaptureObserver observer;
    torch::Tensor kept;
    session.stepBegin(0);
    const int64_t before = tracker->liveBytes();
    kept = torch::ones({1024, 256}); // 1 MiB, allocated while Kineto records
    session.stepEnd(0, observer);
    session.finish(observer);
    ASSERT_EQ(observer.captures.size(), 1u) << ::testing::PrintToString(observer.messages);
    EXPECT_FALSE(observer.captures[0].trace.kineto.memory.empty());
    torch::Tensor small = torch::ones({16}); // the first report after the window
    EXPECT_GE(tracker->liveBytes(), before + 1024 * 256 * 4);
}

TEST(KinetoSession, AutoRecordsThroughKinetoWhereLibTorchHasIt) {
    SKIP_WITHOUT_KINETO();
    ProfileSession session(kinetoConfig(0, 1, "auto"), false, nullptr);
    EXPECT_TRUE(session.usesKineto());
    ProfileSession own(kinetoConfig(0, 1, "trainscope"), false, nullptr);
    EXPECT_FALSE(own.usesKineto());
}

TEST(KinetoSession, WithoutKinetoTheCollectorRecordsAndTheRunIsTold) {
    std::string why;
    if (KinetoRecorder::available(&why)) GTEST_SKIP() << "this LibTorch has Kineto";
    EXPECT_NE(why.find(TORCH_VERSION), std::string::npos) << why;
    for (const char* recorder : {"kineto", "auto"}) {
        ProfileSession session(kinetoConfig(0, 1, recorder), false, nullptr);
        EXPECT_FALSE(session.usesKineto());
        CaptureObserver observer;
        matmulStep(session, 0, observer);
        session.finish(observer);
        ASSERT_EQ(observer.captures.size(), 1u);
        EXPECT_EQ(observer.captures[0].recorder, "trainscope");
        ASSERT_EQ(observer.messages.size(), 1u) << recorder;
        EXPECT_NE(observer.messages[0].find("without Kineto"), std::string::npos)
            << observer.messages[0];
        EXPECT_EQ(countEvents(observer.captures[0].trace, "aten::mm"), 1);
        const auto& notes = observer.captures[0].trace.notes;
        EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
            return n.find("without Kineto") != std::string::npos;
        }));
    }
}

} // namespace
} // namespace ts
