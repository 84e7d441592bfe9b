// MemoryTracker: LibTorch's CPU memory reporting through a debug-info scope.
#include <gtest/gtest.h>

#include <c10/core/Allocator.h>
#include <torch/torch.h>

#include "profiling/MemoryTracker.h"

namespace ts {
namespace {

constexpr int64_t kMiB = 1 << 20;

TEST(ProfMemoryTracker, ScopeReportsAllocationPeakAndFree) {
    auto tracker = MemoryTracker::create();
    MemoryTracker::Scope scope(tracker);
    EXPECT_TRUE(c10::memoryProfilingEnabled());
    const int64_t before = tracker->liveBytes();
    tracker->resetPeak();
    {
        torch::Tensor t = torch::empty({kMiB / 4}, torch::kFloat); // 1 MiB
        EXPECT_GE(tracker->liveBytes() - before, kMiB);
        EXPECT_GE(tracker->peakBytes() - before, kMiB);
    }
    EXPECT_LT(tracker->liveBytes() - before, kMiB);
    EXPECT_GE(tracker->peakBytes() - before, kMiB); // the peak stays until reset
    tracker->resetPeak();
    EXPECT_EQ(tracker->peakBytes(), tracker->liveBytes());
}

TEST(ProfMemoryTracker, ListenerSeesAllocationAndFreeEvents) {
    auto tracker = MemoryTracker::create();
    std::vector<int64_t> deltas;
    tracker->setListener([&](int64_t delta, int64_t) { deltas.push_back(delta); });
    {
        MemoryTracker::Scope scope(tracker);
        torch::Tensor t = torch::ones({2 * kMiB / 4});
    }
    tracker->setListener(nullptr);
    ASSERT_GE(deltas.size(), 2u);
    const auto big_alloc = std::find(deltas.begin(), deltas.end(), 2 * kMiB);
    const auto big_free = std::find(deltas.begin(), deltas.end(), -2 * kMiB);
    EXPECT_NE(big_alloc, deltas.end());
    EXPECT_NE(big_free, deltas.end());
    EXPECT_LT(big_alloc, big_free);
    // Without a listener nothing is called (and nothing crashes).
    MemoryTracker::Scope scope(tracker);
    torch::Tensor t = torch::ones({16});
    EXPECT_EQ(std::count(deltas.begin(), deltas.end(), 64), 0);
}

TEST(ProfMemoryTracker, NothingIsReportedOutsideAScope) {
    auto tracker = MemoryTracker::create();
    { MemoryTracker::Scope scope(tracker); }
    EXPECT_FALSE(c10::memoryProfilingEnabled());
    const int64_t before = tracker->liveBytes();
    torch::Tensor t = torch::empty({kMiB / 4});
    EXPECT_EQ(tracker->liveBytes(), before);
    EXPECT_EQ(tracker->peakBytes(), before);
}

TEST(ProfMemoryTracker, ScopeWithoutTrackerIsHarmless) {
    MemoryTracker::Scope scope(nullptr);
    torch::Tensor t = torch::ones({8});
    EXPECT_EQ(t.sum().item<float>(), 8.0f);
}

} // namespace
} // namespace ts
