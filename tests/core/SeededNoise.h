#pragma once
// Normal deviates that are the same on every standard library (unlike
// std::normal_distribution), for tests of decisions under known noise.
#include <cmath>
#include <cstdint>
#include <random>

namespace ts::test {

class SeededNoise {
public:
    explicit SeededNoise(uint64_t seed) : rng_(seed) {}
    // Box-Muller over two 53-bit uniforms.
    double normal() {
        const double u1 = (double(rng_() >> 11) + 0.5) / 9007199254740992.0;
        const double u2 = double(rng_() >> 11) / 9007199254740992.0;
        return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
    }

private:
    std::mt19937_64 rng_;
};

} // namespace ts::test
