#pragma once
// IDX files (the MNIST family's format): a big-endian magic number
// 0x0000TTDD (TT = value type, DD = number of dimensions), DD big-endian
// uint32 sizes, then the values. Only unsigned bytes (TT = 0x08) are used.
#include <cstdint>
#include <filesystem>
#include <vector>

namespace ts {

struct IdxArray {
    std::vector<int64_t> dims;
    std::vector<uint8_t> bytes; // the whole file, header included
    size_t offset = 0;          // where the values start in `bytes`

    const uint8_t* values() const { return bytes.data() + offset; }
};

// Reads a gzip or plain IDX file of unsigned bytes with `rank` dimensions and
// checks its size against the header. `what` ("image", "label") words errors.
IdxArray readIdxUbyte(const std::filesystem::path& path, int rank, const char* what);

} // namespace ts
