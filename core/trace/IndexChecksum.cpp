#include "trace/IndexChecksum.h"

#include <algorithm>

#include "util/ThreadPool.h"

namespace ts {

void IndexChecksum::add(const void* data, size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    while (size > 0) {
        const size_t take = std::min(size, kIndexChecksumBlock - in_block_);
        block_.add(bytes, take);
        bytes += take, size -= take, in_block_ += take;
        if (in_block_ == kIndexChecksumBlock) {
            blocks_.addValue(block_.digest());
            block_ = Hash64(0x626c6b);
            in_block_ = 0;
        }
    }
}

uint64_t IndexChecksum::digest() const {
    Hash64 all = blocks_;
    if (in_block_ > 0) all.addValue(block_.digest());
    return all.digest();
}

uint64_t indexChecksum(const std::vector<IndexBytes>& pieces, unsigned threads) {
    // Where each piece starts in the body, to find a block's first piece.
    std::vector<uint64_t> starts;
    starts.reserve(pieces.size());
    uint64_t total = 0;
    for (const IndexBytes& p : pieces) {
        starts.push_back(total);
        total += p.size;
    }
    const size_t blocks = size_t((total + kIndexChecksumBlock - 1) / kIndexChecksumBlock);
    std::vector<uint64_t> digests(blocks);
    auto hashBlock = [&](size_t b) {
        const uint64_t begin = uint64_t(b) * kIndexChecksumBlock;
        const uint64_t end = std::min<uint64_t>(total, begin + kIndexChecksumBlock);
        size_t p =
            size_t(std::upper_bound(starts.begin(), starts.end(), begin) - starts.begin()) - 1;
        Hash64 h(0x626c6b);
        for (uint64_t at = begin; at < end; ++p) {
            const uint64_t from = at - starts[p];
            const uint64_t take = std::min<uint64_t>(pieces[p].size - from, end - at);
            h.add(static_cast<const unsigned char*>(pieces[p].data) + from, size_t(take));
            at += take;
        }
        digests[b] = h.digest();
    };
    // A thread per four blocks at most: small bodies are hashed here.
    parallelFor(blocks, unsigned(std::min<size_t>(std::max(threads, 1u), 1 + blocks / 4)),
                hashBlock);
    Hash64 all(0x74736964);
    for (uint64_t d : digests)
        all.addValue(d);
    return all.digest();
}

uint64_t indexChecksum(std::string_view body) {
    IndexChecksum sum;
    sum.add(body.data(), body.size());
    return sum.digest();
}

} // namespace ts
