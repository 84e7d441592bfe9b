// HostMemoryRetention changes how glibc hands freed blocks back to the kernel.
// The observable effect is page faults: re-allocating and touching a block that
// was just freed costs no new faults while retained, and one fault per page
// once glibc maps it afresh. Faults are counted for the calling thread only
// (RUSAGE_THREAD), so other threads of the test process do not disturb them.
// Blocks on the main thread are 512 MiB: glibc serves a request from any free
// hole of the heap before mapping new memory, and earlier tests in the same
// process (the engine's) leave holes of tens of MiB.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <thread>

#include "util/HostMemoryRetention.h"

namespace ts {
namespace {

constexpr size_t kBlock = size_t(512) << 20;
// On a worker thread: above glibc's largest dynamic mmap threshold (32 MiB),
// below its per-thread heap size (64 MiB).
constexpr size_t kThreadBlock = size_t(40) << 20;
constexpr long pagesOf(size_t bytes) {
    return long(bytes / 4096);
}
constexpr long kPages = pagesOf(kBlock);

long threadFaults() {
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_minflt;
}

// Writes one byte per page through a volatile pointer, so the compiler cannot
// drop the writes before free() and every page is really touched.
void touchEveryPage(void* block, size_t size) {
    volatile char* bytes = static_cast<volatile char*>(block);
    for (size_t offset = 0; offset < size; offset += 4096)
        bytes[offset] = 1;
}

// Faults of allocating a block, touching every page and freeing it.
long faultsOfNewBlock(size_t size = kBlock) {
    const long before = threadFaults();
    void* block = std::malloc(size);
    touchEveryPage(block, size);
    const long faults = threadFaults() - before;
    std::free(block);
    return faults;
}

// The same after a block of that size was just freed: what a training step
// pays for re-allocating its activations.
long faultsOfReallocation(size_t size = kBlock) {
    void* first = std::malloc(size);
    touchEveryPage(first, size);
    std::free(first);
    return faultsOfNewBlock(size);
}

TEST(HostMemoryRetention, ReallocationReusesMemoryOnTheCallingThread) {
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "retention is a glibc malloc setting (ASan brings its own allocator)";
#endif
    const HostMemoryRetention retention(true);
    EXPECT_TRUE(HostMemoryRetention::active());
    EXPECT_GT(faultsOfNewBlock(), kPages * 9 / 10) << "the first touch of new memory faults";
    EXPECT_LT(faultsOfReallocation(), kPages / 100);
}

TEST(HostMemoryRetention, ReallocationReusesMemoryOnAWorkerThread) {
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "retention is a glibc malloc setting (ASan brings its own allocator)";
#endif
    // The GUI trains on a worker thread, whose blocks come from a per-thread heap.
    const HostMemoryRetention retention(true);
    long faults = -1;
    std::thread([&] { faults = faultsOfReallocation(kThreadBlock); }).join();
    EXPECT_GE(faults, 0);
    EXPECT_LT(faults, pagesOf(kThreadBlock) / 100);
}

TEST(HostMemoryRetention, LastReleaseRestoresReturningMemory) {
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "retention is a glibc malloc setting (ASan brings its own allocator)";
#endif
    {
        const HostMemoryRetention outer(true);
        { const HostMemoryRetention inner(true); }
        EXPECT_TRUE(HostMemoryRetention::active()) << "the outer retention still holds";
        EXPECT_LT(faultsOfReallocation(), kPages / 100);
    }
    EXPECT_FALSE(HostMemoryRetention::active());
    // Without retention a block this large is mapped afresh: every page faults again.
    EXPECT_GT(faultsOfReallocation(), kPages * 9 / 10);
}

TEST(HostMemoryRetention, DisabledRetentionChangesNothing) {
    const HostMemoryRetention off(false);
    EXPECT_FALSE(HostMemoryRetention::active());
#if defined(__GLIBC__)
    EXPECT_GT(faultsOfReallocation(), kPages * 9 / 10);
#endif
}

} // namespace
} // namespace ts
