#pragma once
// The identity of a trace file for its cached index: size, modification time,
// device and inode from stat(), and a 128-bit fingerprint of its content: the
// first and last MiB and 62 blocks of 64 KiB spread evenly between them
// (about 6 MB read, a few milliseconds from the page cache, whatever the
// trace's size). A trace rewritten in place with the same size and mtime is
// still told apart by its content; hashing every byte of a 10 GB trace on
// each open would cost more than reading the index it protects.
#include <filesystem>
#include <optional>

#include "trace/TraceIndex.h"

namespace ts {

// nullopt when the file cannot be read (the caller then reads the trace the
// ordinary way, which reports the problem in words).
std::optional<TraceKey> traceKeyOf(const std::filesystem::path& path);
// Only what stat() says (size, mtime, device, inode; no fingerprint): for a
// result kept of a small file, where hashing most of the file on every
// open would cost more than the stat check saves.
std::optional<TraceKey> traceStatOf(const std::filesystem::path& path);

} // namespace ts
