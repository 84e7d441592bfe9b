#pragma once
// Whole-file reads for the dataset readers. zlib's gz* functions inflate gzip
// files and pass plain files through unchanged, so one reader serves both.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ts {

struct FileBytes {
    std::vector<uint8_t> bytes; // decompressed content
    // Non-empty when a gzip stream ended before its end marker (a truncated
    // download); `bytes` then holds what could be inflated.
    std::string truncation_note;
};

// Throws DataError when the file is missing, unreadable or corrupt.
FileBytes readFileBytes(const std::filesystem::path& path);

// "'<path>'" for messages.
std::string quoted(const std::filesystem::path& path);

} // namespace ts
