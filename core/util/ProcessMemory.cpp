#include "util/ProcessMemory.h"

#include <cstdio>
#include <cstring>

#include <sys/resource.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace ts {
namespace {

// A "Field:  1234 kB" line of a /proc file, in bytes; 0 when absent.
int64_t procField(const char* file, const char* field) {
    std::FILE* f = std::fopen(file, "r");
    if (!f) return 0;
    char line[256];
    int64_t kb = 0;
    const size_t len = std::strlen(field);
    while (std::fgets(line, sizeof line, f)) {
        if (std::strncmp(line, field, len) == 0) {
            std::sscanf(line + len, "%ld", &kb);
            break;
        }
    }
    std::fclose(f);
    return kb * 1024;
}

} // namespace

int64_t currentRssBytes() {
    return procField("/proc/self/status", "VmRSS:");
}
int64_t peakRssBytes() {
    return procField("/proc/self/status", "VmHWM:");
}
int64_t mappedBytes() {
    return procField("/proc/self/status", "VmSize:");
}
int64_t availableMemoryBytes() {
    return procField("/proc/meminfo", "MemAvailable:");
}

int64_t processPageFaults() {
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
    return usage.ru_minflt + usage.ru_majflt;
}

void returnFreedMemory() {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

} // namespace ts
