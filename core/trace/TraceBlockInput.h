#pragma once
// A trace file's JSON text read in large blocks for the fast reader: plain
// files with pread() (not mmap: mapped pages would count in the resident
// memory, and a file truncated under a mapping raises SIGBUS), .json.gz
// files inflated with zlib (concatenated members too), or text in memory.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace ts {

class TraceBlockInput {
public:
    virtual ~TraceBlockInput() = default;
    // Up to `max` bytes of JSON text into `out`; fewer only at the end, 0
    // after it. Throws TraceReadError naming the file.
    virtual size_t read(char* out, size_t max) = 0;
    // Bytes of the underlying file consumed so far (compressed bytes for a
    // .json.gz), and its size: the read's progress.
    virtual uint64_t consumed() const = 0;
    virtual uint64_t total() const = 0;
    virtual bool compressed() const { return false; }
};

// Gzip is told by its magic bytes, as openTraceFile does. Throws
// TraceReadError when the file is missing or unreadable.
std::unique_ptr<TraceBlockInput> openTraceBlockInput(const std::filesystem::path& path);
// `text` must outlive the input.
std::unique_ptr<TraceBlockInput> textBlockInput(const std::string& text);

} // namespace ts
