#include "datasets/IdxFile.h"

#include <cstdint>
#include <cstdio>
#include <string>

#include "datasets/Dataset.h"
#include "datasets/FileBytes.h"

namespace ts {

namespace {

constexpr uint32_t kUbyteType = 0x08;

uint32_t bigEndian32(const uint8_t* p) {
    return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}

std::string hex32(uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", value);
    return text;
}

std::string shapeText(const std::vector<int64_t>& dims) {
    std::string text;
    for (size_t i = 0; i < dims.size(); ++i)
        text += (i ? " x " : "") + std::to_string(dims[i]);
    return text;
}

void checkSize(const std::filesystem::path& path, const IdxArray& idx, const FileBytes& file) {
    // Saturating product: a corrupt header must not wrap around to a plausible size.
    uint64_t count = 1;
    for (int64_t d : idx.dims)
        count = d != 0 && count > (UINT64_MAX >> 1) / uint64_t(d) ? UINT64_MAX >> 1
                                                                  : count * uint64_t(d);
    const uint64_t expected = idx.offset + count;
    const uint64_t actual = idx.bytes.size();
    if (actual == expected) return;
    const std::string header = "its header announces " + shapeText(idx.dims) + " values (" +
                               std::to_string(expected) + " bytes with the header)";
    std::string message = actual < expected
                              ? "IDX file " + quoted(path) + " is truncated: " + header +
                                    " but it holds only " + std::to_string(actual) + " bytes"
                              : "IDX file " + quoted(path) + " is too long: " + header +
                                    " but it holds " + std::to_string(actual) + " bytes";
    if (!file.truncation_note.empty()) message += "; " + file.truncation_note;
    throw DataError(message + ".");
}

} // namespace

IdxArray readIdxUbyte(const std::filesystem::path& path, int rank, const char* what) {
    FileBytes file = readFileBytes(path);
    IdxArray idx;
    idx.bytes = std::move(file.bytes);
    idx.offset = 4 + 4 * size_t(rank);
    if (idx.bytes.size() < idx.offset)
        throw DataError("IDX file " + quoted(path) + " is truncated: it holds " +
                        std::to_string(idx.bytes.size()) + " bytes, less than the " +
                        std::to_string(idx.offset) + "-byte header of an IDX " + what + " file.");
    const uint32_t magic = bigEndian32(idx.bytes.data());
    const uint32_t expected_magic = kUbyteType << 8 | uint32_t(rank);
    if (magic != expected_magic)
        throw DataError("File " + quoted(path) + " is not an IDX " + what + " file: magic number " +
                        hex32(magic) + ", expected " + hex32(expected_magic) +
                        " (unsigned bytes, " + std::to_string(rank) + " dimension" +
                        (rank == 1 ? "" : "s") + ").");
    for (int d = 0; d < rank; ++d)
        idx.dims.push_back(bigEndian32(idx.bytes.data() + 4 + 4 * d));
    checkSize(path, idx, file);
    return idx;
}

} // namespace ts
