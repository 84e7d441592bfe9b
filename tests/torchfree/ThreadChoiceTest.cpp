// threads=0 (the default) takes the cores this process may use, shared by the
// local ranks, with a few left to loader workers; threads=N is taken as is;
// the reason names the figures (run.json's environment records it).
#include <thread>

#include <gtest/gtest.h>

#include "config/ThreadChoice.h"
#include "util/CpuAffinity.h"

namespace {

using ts::chooseIntraOpThreads;

TEST(ThreadChoice, AnExplicitCountIsTakenAsIs) {
    const auto c = chooseIntraOpThreads(3, 2, 16);
    EXPECT_EQ(c.threads, 3);
    EXPECT_EQ(c.reason, "threads=3 as configured");
}

TEST(ThreadChoice, TheDefaultUsesTheUsableCores) {
    // The 2-core VM where LibTorch's own default is one thread.
    auto c = chooseIntraOpThreads(0, 0, 2);
    EXPECT_EQ(c.threads, 2);
    EXPECT_EQ(c.reason, "2 usable core(s) (CPU affinity): 2 intra-op thread(s) (threads=0)");
    // A loader worker on 2 cores gets no core of its own (a quarter of 2 is 0).
    EXPECT_EQ(chooseIntraOpThreads(0, 1, 2).threads, 2);
    // On 16 cores, 8 workers get up to a quarter of them: 4.
    c = chooseIntraOpThreads(0, 8, 16);
    EXPECT_EQ(c.threads, 12);
    EXPECT_NE(c.reason.find("4 left to the 8 loader worker(s)"), std::string::npos) << c.reason;
}

TEST(ThreadChoice, LocalRanksShareTheCores) {
    const auto c = chooseIntraOpThreads(0, 0, 16, 4);
    EXPECT_EQ(c.threads, 4);
    EXPECT_NE(c.reason.find("4 for each of 4 local ranks"), std::string::npos) << c.reason;
    EXPECT_EQ(chooseIntraOpThreads(0, 2, 2, 4).threads, 1) << "never below one";
    EXPECT_EQ(chooseIntraOpThreads(0, 0, 0).threads, 1) << "unknown cores count as one";
}

TEST(ThreadChoice, UsableCoresAreThisProcesssAffinity) {
    const int cores = ts::usableCores();
    EXPECT_GE(cores, 1);
    const unsigned machine = std::thread::hardware_concurrency();
    if (machine > 0) {
        EXPECT_LE(cores, static_cast<int>(machine));
    }
}

} // namespace
