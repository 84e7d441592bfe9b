#include "PythonRandom.h"

namespace ts::snapgen {
namespace {
constexpr int N = 624, M = 397;
} // namespace

// init_genrand(19650218) and then init_by_array(the seed's 32-bit words),
// as CPython's random_seed does for a non-negative int.
PythonRandom::PythonRandom(uint64_t seed) {
    uint32_t key[2] = {uint32_t(seed), uint32_t(seed >> 32)};
    const int key_length = (seed >> 32) ? 2 : 1;
    mt_[0] = 19650218u;
    for (int i = 1; i < N; ++i)
        mt_[i] = 1812433253u * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + uint32_t(i);
    int i = 1, j = 0;
    for (int k = N > key_length ? N : key_length; k; --k) {
        mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525u)) + key[j] + uint32_t(j);
        ++i, ++j;
        if (i >= N) mt_[0] = mt_[N - 1], i = 1;
        if (j >= key_length) j = 0;
    }
    for (int k = N - 1; k; --k) {
        mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941u)) - uint32_t(i);
        ++i;
        if (i >= N) mt_[0] = mt_[N - 1], i = 1;
    }
    mt_[0] = 0x80000000u;
}

void PythonRandom::reload() {
    constexpr uint32_t kUpper = 0x80000000u, kLower = 0x7fffffffu, kMatrix = 0x9908b0dfu;
    for (int k = 0; k < N; ++k) {
        const uint32_t y = (mt_[k] & kUpper) | (mt_[(k + 1) % N] & kLower);
        mt_[k] = mt_[(k + M) % N] ^ (y >> 1) ^ ((y & 1) ? kMatrix : 0);
    }
    index_ = 0;
}

uint32_t PythonRandom::next32() {
    if (index_ >= N) reload();
    uint32_t y = mt_[index_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

// Words from the least significant up; the last one keeps its high bits.
uint64_t PythonRandom::bits(int k) {
    if (k == 0) return 0;
    if (k <= 32) return next32() >> (32 - k);
    const uint64_t low = next32();
    return low | (uint64_t(next32() >> (64 - k)) << 32);
}

double PythonRandom::random() {
    const uint32_t a = next32() >> 5, b = next32() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

uint64_t PythonRandom::below(uint64_t n) {
    if (n == 0) return 0;
    const int k = 64 - __builtin_clzll(n);
    uint64_t r = bits(k);
    while (r >= n)
        r = bits(k);
    return r;
}

} // namespace ts::snapgen
