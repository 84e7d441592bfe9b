#pragma once
// A trace file as a run of byte chunks, plain or gzip-compressed. The JSON
// stream parses chunk by chunk, so memory holds one chunk of the text rather
// than all of it, and how far the file was consumed is the read's progress.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace ts {

class TraceSource {
public:
    virtual ~TraceSource() = default;
    // The next at most `max` bytes of JSON text; empty at the end. The view
    // stays valid until the next call. Throws TraceReadError.
    virtual std::string_view next(size_t max) = 0;
    // Bytes of the underlying file consumed so far, and its size.
    virtual uint64_t consumed() const = 0;
    virtual uint64_t total() const = 0;
};

// Throws TraceReadError naming the file when it is missing or unreadable
// (no size limit: more than 2^31-1 events is the reader's limit). Gzip is told by its magic
// bytes, not the file name.
std::unique_ptr<TraceSource> openTraceFile(const std::filesystem::path& path);
// `text` must outlive the source.
std::unique_ptr<TraceSource> traceTextSource(const std::string& text);

} // namespace ts
