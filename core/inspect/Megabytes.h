#pragma once
// Whole MiB, rounded, as the trace commands print sizes ("412 MB"): the
// progress line and trace-cache share it.
#include <cstdint>
#include <string>

namespace ts {

inline std::string wholeMegabytes(uint64_t bytes) {
    return std::to_string((bytes + (uint64_t(1) << 19)) >> 20);
}

} // namespace ts
