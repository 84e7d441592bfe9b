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

// One rank's part of an epoch's order, as torch's DistributedSampler deals it:
// positions rank, rank + count, rank + 2 count, ... With `pad`, the order is
// first extended from its start to a multiple of `count`, so every rank gets
// the same number of samples (training: the ranks step in lockstep); without
// it the parts are disjoint and cover the order exactly (validation).
std::vector<int64_t> shardOrder(const std::vector<int64_t>& order, int rank, int count, bool pad);
// The size of that part for an order of `size` samples.
int64_t shardSize(int64_t size, int rank, int count, bool pad);

} // namespace ts
