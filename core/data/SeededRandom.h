#pragma once
// Small, platform-independent random helpers for the data pipeline. The
// standard distributions are implementation-defined (libstdc++ and libc++
// shuffle differently), so the loader derives everything from SplitMix64,
// whose output is fixed by its definition.
#include <cstdint>
#include <vector>

namespace ts {

constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

// SplitMix64's output function applied to x + gamma: a well-mixed 64-bit hash.
inline uint64_t splitmix64(uint64_t x) {
    x += kGoldenGamma;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// The SplitMix64 generator: a counter advanced by gamma, hashed.
struct SplitMix64 {
    uint64_t state;
    uint64_t next() {
        const uint64_t out = splitmix64(state);
        state += kGoldenGamma;
        return out;
    }
};

// Combines two values into a seed; order matters.
inline uint64_t mixSeeds(uint64_t a, uint64_t b) {
    return splitmix64(splitmix64(a) ^ b);
}

// The order in which an epoch visits the dataset: identity without shuffle,
// else a Fisher-Yates permutation seeded by (seed, epoch).
std::vector<int64_t> epochOrder(int64_t size, bool shuffle, uint64_t seed, int epoch);

} // namespace ts
