#pragma once
// Python's random.Random (CPython 3.11): the Mersenne Twister seeded as
// random.seed(int) seeds it, and random(), randrange() and choice() drawing
// from it as CPython draws, so that make_snapshot (C++) makes from a seed the
// very snapshot make_snapshot.py makes: its byte-for-byte check.
#include <array>
#include <cstdint>

namespace ts::snapgen {

class PythonRandom {
public:
    explicit PythonRandom(uint64_t seed);
    // random.random(): 53 random bits in [0, 1).
    double random();
    // random.randrange(n) (_randbelow: k random bits, drawn again while >= n).
    uint64_t below(uint64_t n);
    // random.randrange(start, stop).
    int64_t range(int64_t start, int64_t stop) {
        return start + int64_t(below(uint64_t(stop - start)));
    }

private:
    uint32_t next32();
    uint64_t bits(int k); // getrandbits(k), k <= 64
    void reload();

    std::array<uint32_t, 624> mt_{};
    int index_ = 624;
};

} // namespace ts::snapgen
