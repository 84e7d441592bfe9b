#include "experiments/HostMemory.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <string>

namespace ts {
namespace {

int64_t readNumber(const char* path) {
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text == "max") return -1;
    try {
        return std::stoll(text);
    } catch (const std::exception&) {
        return -1;
    }
}

int64_t memAvailable() {
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    int64_t kb = 0;
    while (in >> key >> kb) {
        std::getline(in, unit);
        if (key == "MemAvailable:") return kb * 1024;
    }
    return -1;
}

// Room left under the container's memory limit, -1 when there is no limit.
int64_t cgroupRoom() {
    constexpr int64_t kUnlimited = int64_t(1) << 60;
    struct Files {
        const char* limit;
        const char* usage;
    };
    for (const Files& f : {Files{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
                           Files{"/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                 "/sys/fs/cgroup/memory/memory.usage_in_bytes"}}) {
        const int64_t limit = readNumber(f.limit), usage = readNumber(f.usage);
        if (limit > 0 && limit < kUnlimited && usage >= 0)
            return std::max<int64_t>(0, limit - usage);
    }
    return -1;
}

} // namespace

int64_t availableHostMemoryBytes() {
    const int64_t host = memAvailable(), room = cgroupRoom();
    if (host < 0) return room < 0 ? std::numeric_limits<int64_t>::max() : room;
    return room < 0 ? host : std::min(host, room);
}

bool resetPeakRss() {
    std::ofstream out("/proc/self/clear_refs");
    out << "5"; // "5": reset the peak resident set size (Linux >= 4.0)
    out.flush();
    return bool(out);
}

} // namespace ts
