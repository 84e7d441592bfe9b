#pragma once
// A size as people type it: "4096", "512K", "1.5 MiB", "2GB". K, M, G and T
// are powers of 1024 whether written KB or KiB, as PyTorch's and nvidia-smi's
// memory figures are.
#include <cstdint>
#include <optional>
#include <string>

namespace ts {

// nullopt for text that is not a size (or is negative, or overflows).
std::optional<int64_t> parseByteSize(const std::string& text);

} // namespace ts
