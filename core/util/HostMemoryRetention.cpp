#include "util/HostMemoryRetention.h"

#include <climits>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ts {
namespace {

std::mutex g_mutex;
int g_holders = 0; // enabled retentions alive; guarded by g_mutex

// glibc's documented defaults (mallopt(3)), restored when the last retention ends.
constexpr int kDefaultMmapMax = 65536;
constexpr int kDefaultThreshold = 128 * 1024;

void applyRetention() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_MAX, 0);             // every block from the heap, none mmap'd
    mallopt(M_TRIM_THRESHOLD, INT_MAX); // never shrink the heap on free
#endif
}

void releaseRetention() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_MAX, kDefaultMmapMax);
    mallopt(M_TRIM_THRESHOLD, kDefaultThreshold);
    mallopt(M_MMAP_THRESHOLD, kDefaultThreshold);
    malloc_trim(0);
#endif
}

} // namespace

HostMemoryRetention::HostMemoryRetention(bool enabled) : enabled_(enabled) {
    if (!enabled_) return;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_holders++ == 0) applyRetention();
}

HostMemoryRetention::~HostMemoryRetention() {
    if (!enabled_) return;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (--g_holders == 0) releaseRetention();
}

bool HostMemoryRetention::active() {
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_holders > 0;
}

} // namespace ts
