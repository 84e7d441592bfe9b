#pragma once
// A trace too large for the memory this process may use is refused before it
// is read, in plain words, instead of driving the machine into swap or the
// reader into std::bad_alloc minutes later.
#include <cstdint>
#include <filesystem>
#include <string>

namespace ts {

struct MemoryBudget {
    uint64_t bytes = UINT64_MAX; // UINT64_MAX: no limit known
    std::string source;          // what set it: "MemAvailable in /proc/meminfo", ...
};

// The memory this process may still take: the least of the machine's
// available memory, its cgroup's limit less its use, the address-space limit
// (ulimit -v) less what it maps, and TRAINSCOPE_MEMORY_LIMIT (bytes, or with
// K, M, G: a ceiling a user sets on a shared machine).
MemoryBudget memoryBudget();

// Peak memory reading a trace of `file_bytes` takes: the compact store and
// the reader's working set measured at 0.57x the JSON on a 1 GB trace, with
// headroom. `gzip_trailer_bytes`: the uncompressed size a gzip file's
// trailer records (0 for plain JSON).
uint64_t traceReadBytes(uint64_t file_bytes, uint64_t gzip_trailer_bytes);

// Throws TraceReadError naming the file, what it needs and what is available
// when the read cannot fit; TRAINSCOPE_MEMORY_LIMIT=0 turns the check off.
void checkTraceFitsInMemory(const std::filesystem::path& path);

} // namespace ts
