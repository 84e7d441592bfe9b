#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace ts {

// The first number after `field` ("VmRSS:", "Uid:") on its line of a /proc
// file such as /proc/self/status; nullopt when the file or the line is absent.
std::optional<int64_t> procNumber(const std::string& file, const char* field);

// Resident set size of this process now and its lifetime peak (VmHWM), bytes.
int64_t currentRssBytes();
int64_t peakRssBytes();
// This process's mapped address space (VmSize), what ulimit -v counts.
int64_t mappedBytes();
// What the machine can still give without swapping (MemAvailable); 0 if unknown.
int64_t availableMemoryBytes();

// Page faults (minor + major) of the whole process since it started.
int64_t processPageFaults();
// Bytes one fault maps: a 4 KiB base page (transparent huge pages aside).
inline constexpr double kPageBytes = 4096.0;

// Gives memory freed in this process back to the system (glibc's
// malloc_trim over every thread's heap; nothing without glibc). glibc keeps
// freed blocks of a thread's heap for reuse, so after a phase whose worker
// threads allocated a lot (reading a large trace), that memory would still
// count in the resident set while the next phase allocates its own.
void returnFreedMemory();

} // namespace ts
