#include "util/ProcessMemory.h"

#include <cstdio>
#include <cstring>

namespace ts {
namespace {

int64_t statusField(const char* field) {
    std::FILE* f = std::fopen("/proc/self/status", "r");
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

int64_t currentRssBytes() { return statusField("VmRSS:"); }
int64_t peakRssBytes() { return statusField("VmHWM:"); }

} // namespace ts
