// util/ThreadPool.h: the core's one pool. Every group's tasks end before its
// wait() returns, whatever the pool can give; exceptions and cancels reach
// the caller. Also run under ThreadSanitizer (tsan_trace_tests).
#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "util/BackgroundWrites.h"
#include "util/Cancel.h"
#include "util/ThreadPool.h"

namespace ts {
namespace {

TEST(ThreadPool, GroupRunsEveryTaskBeforeWaitReturns) {
    ThreadPool pool(3);
    std::vector<int> out(100, 0);
    TaskGroup group(pool);
    for (size_t i = 0; i < out.size(); ++i)
        group.run([&out, i] { out[i] = int(i) * 2; });
    group.wait();
    for (size_t i = 0; i < out.size(); ++i)
        EXPECT_EQ(out[i], int(i) * 2);
}

// No thread to be had: the tasks run in wait(), on the caller's thread.
TEST(ThreadPool, APoolWithoutThreadsRunsTasksInWait) {
    ThreadPool pool(0);
    EXPECT_EQ(pool.size(), 0u);
    int ran = 0;
    TaskGroup group(pool);
    group.run([&] { ++ran; });
    group.run([&] { ++ran; });
    EXPECT_EQ(ran, 0);
    group.wait();
    EXPECT_EQ(ran, 2);
}

// Tasks that wait for groups of their own on a one-thread pool: each wait()
// runs what no thread took, so nothing waits forever.
TEST(ThreadPool, NestedGroupsOnASmallPoolFinish) {
    ThreadPool pool(1);
    std::atomic<int> leaves{0};
    TaskGroup outer(pool);
    for (int i = 0; i < 4; ++i)
        outer.run([&] {
            TaskGroup inner(pool);
            for (int j = 0; j < 4; ++j)
                inner.run([&] { leaves.fetch_add(1); });
            inner.wait();
        });
    outer.wait();
    EXPECT_EQ(leaves.load(), 16);
}

TEST(ThreadPool, TheFirstExceptionReachesWaitAndTheOthersStillEnd) {
    ThreadPool pool(2);
    std::atomic<int> ended{0};
    TaskGroup group(pool);
    group.run([] { throw std::runtime_error("first"); });
    for (int i = 0; i < 8; ++i)
        group.run([&] { ended.fetch_add(1); });
    EXPECT_THROW(group.wait(), std::runtime_error);
    EXPECT_EQ(ended.load(), 8);
    group.wait(); // taken: nothing left to throw
}

TEST(ThreadPool, ParallelForVisitsEachIndexOnce) {
    std::vector<std::atomic<int>> hits(1000);
    parallelFor(hits.size(), 4, [&](size_t i) { hits[i].fetch_add(1); });
    for (const std::atomic<int>& h : hits)
        EXPECT_EQ(h.load(), 1);
    parallelFor(0, 4, [](size_t) { FAIL() << "no index"; });
}

TEST(ThreadPool, ParallelForRethrowsAndStopsHandingOut) {
    std::atomic<size_t> done{0};
    EXPECT_THROW(parallelFor(100000, 4,
                             [&](size_t i) {
                                 if (i == 10) throw std::invalid_argument("bad item");
                                 done.fetch_add(1);
                             }),
                 std::invalid_argument);
    EXPECT_LT(done.load(), 100000u - 1);
}

TEST(ThreadPool, SharedPoolFollowsTheAffinity) {
    EXPECT_GE(ThreadPool::shared().size(), 1u);
    EXPECT_LE(ThreadPool::shared().size(), 64u);
}

TEST(Cancel, ACheckThrowsOnceRequested) {
    CancelFlag flag;
    EXPECT_NO_THROW(checkCancel(&flag));
    EXPECT_NO_THROW(checkCancel(nullptr));
    flag.request();
    EXPECT_TRUE(flag.requested());
    EXPECT_THROW(checkCancel(&flag), Cancelled);
}

TEST(BackgroundWrites, WaitReturnsOnceEveryWriteEnded) {
    std::atomic<int> written{0};
    for (int i = 0; i < 5; ++i)
        writeInBackground([&] { written.fetch_add(1); });
    writeInBackground([] { throw std::runtime_error("disk full"); }); // dropped
    waitForBackgroundWrites();
    EXPECT_EQ(written.load(), 5);
}

} // namespace
} // namespace ts
