#pragma once
// A fast 64-bit hash of bytes, fed piece by piece: it keys and checks the
// trace cache (a few MB sampled from a trace, a few hundred MB of index).
// Not cryptographic: it catches truncation, bit rot and a foreign file, not
// an attacker (the cache is the user's own). Words are mixed with a
// multiply-rotate step and the result is finished with MurmurHash3's
// avalanche, so every input bit reaches every output bit.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace ts {

class Hash64 {
public:
    explicit Hash64(uint64_t seed = 0) : state_(seed ^ kSeedMix) {}

    void add(const void* data, size_t size) {
        const auto* bytes = static_cast<const unsigned char*>(data);
        length_ += size;
        while (pending_size_ > 0 && size > 0) { // finish a word begun by the last call
            pending_ |= uint64_t(*bytes++) << (8 * pending_size_++);
            --size;
            if (pending_size_ == 8) mixPending();
        }
        for (; size >= 8; size -= 8, bytes += 8) {
            uint64_t word = 0;
            std::memcpy(&word, bytes, 8);
            mix(word);
        }
        while (size-- > 0)
            pending_ |= uint64_t(*bytes++) << (8 * pending_size_++);
    }
    void add(std::string_view text) { add(text.data(), text.size()); }
    template <typename T> void addValue(const T& value) { add(&value, sizeof value); }

    uint64_t digest() const {
        uint64_t h = state_;
        if (pending_size_ > 0) h = step(h, pending_);
        h ^= length_ * kPrime2;
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
        h *= 0xc4ceb9fe1a85ec53ULL;
        h ^= h >> 33;
        return h;
    }

private:
    static constexpr uint64_t kSeedMix = 0x9e3779b97f4a7c15ULL;
    static constexpr uint64_t kPrime1 = 0x87c37b91114253d5ULL;
    static constexpr uint64_t kPrime2 = 0x4cf5ad432745937fULL;

    static uint64_t step(uint64_t h, uint64_t word) {
        word *= kPrime1;
        word = (word << 31) | (word >> 33);
        h ^= word * kPrime2;
        return ((h << 27) | (h >> 37)) * 5 + 0x52dce729;
    }
    void mix(uint64_t word) { state_ = step(state_, word); }
    void mixPending() {
        mix(pending_);
        pending_ = 0;
        pending_size_ = 0;
    }

    uint64_t state_;
    uint64_t length_ = 0;
    uint64_t pending_ = 0;
    unsigned pending_size_ = 0;
};

} // namespace ts
