#pragma once
// The trace index's body checksum, made to be computed on several threads:
// the body is cut into 1 MiB blocks, each hashed on its own (Hash64), and
// the checksum is the hash of the blocks' digests in order. The reader
// loads a large index's sections on two threads and then checks every
// block of what it loaded, instead of hashing a few hundred MB on one.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "util/Hash64.h"

namespace ts {

inline constexpr size_t kIndexChecksumBlock = size_t(1) << 20;

// Fed the body in order, piece by piece (the writer).
class IndexChecksum {
public:
    void add(const void* data, size_t size);
    uint64_t digest() const;

private:
    Hash64 blocks_{0x74736964}; // of the full blocks' digests
    Hash64 block_{0x626c6b};    // of the current block's bytes
    size_t in_block_ = 0;
};

// One contiguous piece of the body in memory; pieces in body order, with
// no gaps, make up the whole body.
struct IndexBytes {
    const void* data = nullptr;
    size_t size = 0;
};

// The same checksum over `pieces`, with the blocks hashed on up to
// `threads` threads.
uint64_t indexChecksum(const std::vector<IndexBytes>& pieces, unsigned threads);
// Of one contiguous body (the fuzz target re-stamps mutated bodies).
uint64_t indexChecksum(std::string_view body);

} // namespace ts
