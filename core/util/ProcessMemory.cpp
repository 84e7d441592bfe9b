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
    return procNumber(file, field).value_or(0) * 1024;
}

} // namespace

std::optional<int64_t> procNumber(const std::string& file, const char* field) {
    std::FILE* f = std::fopen(file.c_str(), "r");
    if (!f) return std::nullopt;
    char line[256];
    std::optional<int64_t> found;
    const size_t len = std::strlen(field);
    while (std::fgets(line, sizeof line, f)) {
        if (std::strncmp(line, field, len) == 0) {
            long value = 0;
            if (std::sscanf(line + len, "%ld", &value) == 1) found = value;
            break;
        }
    }
    std::fclose(f);
    return found;
}

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
