#include "trace/TraceMemoryBudget.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "trace/TraceReadError.h"
#include "util/ProcessMemory.h"

namespace ts {

namespace fs = std::filesystem;

namespace {

// The cgroup (v2) limit left: memory.max less memory.current; none without.
uint64_t cgroupLeft() {
    std::ifstream self("/proc/self/cgroup");
    std::string line, path;
    while (std::getline(self, line))
        if (line.rfind("0::", 0) == 0) path = line.substr(3);
    if (path.empty()) return UINT64_MAX;
    const fs::path dir = fs::path("/sys/fs/cgroup") / fs::path(path).relative_path();
    std::ifstream max_in(dir / "memory.max"), current_in(dir / "memory.current");
    std::string max_text;
    uint64_t current = 0;
    if (!(max_in >> max_text) || max_text == "max" || !(current_in >> current)) return UINT64_MAX;
    const uint64_t max = std::strtoull(max_text.c_str(), nullptr, 10);
    // memory.current counts the page cache too, which the kernel reclaims
    // before it refuses memory: its inactive part is as good as free.
    std::ifstream stat(dir / "memory.stat");
    std::string key;
    uint64_t value = 0;
    while (stat >> key >> value)
        if (key == "inactive_file") current -= std::min(current, value);
    return max > current ? max - current : 0;
}

// "4G", "512M", "1000000" -> bytes; nullopt-like UINT64_MAX when not a size.
uint64_t parseSize(const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !(value >= 0)) return UINT64_MAX;
    const std::string unit(end);
    double scale = 1;
    if (unit == "K" || unit == "k")
        scale = 1024.0;
    else if (unit == "M" || unit == "m")
        scale = 1024.0 * 1024;
    else if (unit == "G" || unit == "g")
        scale = 1024.0 * 1024 * 1024;
    else if (!unit.empty())
        return UINT64_MAX;
    return static_cast<uint64_t>(value * scale);
}

std::string sizeText(uint64_t bytes) {
    char text[32];
    if (bytes >= (uint64_t(1) << 30))
        std::snprintf(text, sizeof text, "%.1f GB", double(bytes) / double(uint64_t(1) << 30));
    else if (bytes >= (uint64_t(1) << 20))
        std::snprintf(text, sizeof text, "%.0f MB", double(bytes) / double(1 << 20));
    else if (bytes >= 1024)
        std::snprintf(text, sizeof text, "%.0f KB", double(bytes) / 1024.0);
    else
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    return text;
}

// A gzip file's trailer: the uncompressed size modulo 4 GiB; 0 for plain files.
uint64_t gzipUncompressedBytes(const fs::path& path, uint64_t file_bytes) {
    std::ifstream in(path, std::ios::binary);
    unsigned char magic[2] = {0, 0};
    if (!in.read(reinterpret_cast<char*>(magic), 2) || magic[0] != 0x1f || magic[1] != 0x8b ||
        file_bytes < 18)
        return 0;
    unsigned char size[4];
    in.seekg(std::streamoff(file_bytes - 4));
    if (!in.read(reinterpret_cast<char*>(size), 4)) return 0;
    return uint64_t(size[0]) | uint64_t(size[1]) << 8 | uint64_t(size[2]) << 16 |
           uint64_t(size[3]) << 24;
}

void takeLeast(MemoryBudget& budget, uint64_t bytes, const char* source) {
    if (bytes < budget.bytes) budget = {bytes, source};
}

} // namespace

MemoryBudget memoryBudget() {
    MemoryBudget budget;
    if (const int64_t available = availableMemoryBytes(); available > 0)
        takeLeast(budget, uint64_t(available), "available on this machine (MemAvailable)");
    takeLeast(budget, cgroupLeft(), "left under this process's cgroup memory limit");
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        const auto mapped = uint64_t(mappedBytes());
        takeLeast(budget, limit.rlim_cur > mapped ? limit.rlim_cur - mapped : 0,
                  "left under the address-space limit (ulimit -v)");
    }
    if (const char* text = std::getenv("TRAINSCOPE_MEMORY_LIMIT"))
        takeLeast(budget, parseSize(text), "allowed by TRAINSCOPE_MEMORY_LIMIT");
    return budget;
}

uint64_t traceReadBytes(uint64_t file_bytes, uint64_t gzip_trailer_bytes) {
    // A gzip trailer holds the size modulo 4 GiB, wrong past 4 GiB: a
    // profiler's JSON compresses 8-15x, so never less than 4x the file.
    const uint64_t json =
        gzip_trailer_bytes == 0 ? file_bytes : std::max(gzip_trailer_bytes, 4 * file_bytes);
    return json / 5 * 3; // 0.6x
}

void checkTraceFitsInMemory(const fs::path& path) {
    if (const char* text = std::getenv("TRAINSCOPE_MEMORY_LIMIT"); text && std::string(text) == "0")
        return;
    std::error_code error;
    const uint64_t file_bytes = fs::file_size(path, error);
    if (error) return; // the reader says what is wrong with the file
    const uint64_t needed = traceReadBytes(file_bytes, gzipUncompressedBytes(path, file_bytes));
    const MemoryBudget budget = memoryBudget();
    if (needed <= budget.bytes) return;
    throw TraceReadError(path.string() + ": this trace (" + sizeText(file_bytes) +
                         ") needs about " + sizeText(needed) + " of memory to read, and " +
                         sizeText(budget.bytes) + " is " + budget.source +
                         "; close other programs or read it on a machine with more memory "
                         "(TRAINSCOPE_MEMORY_LIMIT=0 reads it anyway).");
}

} // namespace ts
