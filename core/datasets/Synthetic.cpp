// Synthetic images whose class can be learnt: each class has a fixed
// prototype (a per-channel base level plus a coarse 4x4 block pattern, coarse
// so that crops and flips keep it recognisable) and every sample is its class
// prototype plus uniform noise. Prototype and noise ranges are chosen so no
// pixel ever clips, which makes the statistics exact functions of the prototypes.
#include <cmath>
#include <random>
#include <string>

#include "datasets/Dataset.h"
#include "datasets/SeededRandom.h"

namespace ts {

namespace {

constexpr int kGrid = 4;     // prototype blocks per side
constexpr int kBaseMin = 80; // base level in [80, 175]
constexpr int kBaseSpan = 96;
constexpr int kBlockAmp = 32; // block offsets in [-32, 32]
constexpr int kNoiseAmp = 48; // noise in [-48, 48]: pixels stay within [0, 255]
constexpr double kNoiseVariance = ((2.0 * kNoiseAmp + 1) * (2.0 * kNoiseAmp + 1) - 1) / 12.0;

void checkPositive(int64_t value, const char* key) {
    if (value < 1)
        throw DataError("Synthetic dataset setting " + std::string(key) +
                        " must be at least 1, got " + std::to_string(value) + ".");
}

// [num_classes][channels * size * size] prototype pixels.
std::vector<std::vector<uint8_t>> makePrototypes(int channels, int size, int num_classes,
                                                 uint64_t seed) {
    std::mt19937_64 random(seed);
    auto prototypes = std::vector<std::vector<uint8_t>>(size_t(num_classes));
    for (auto& proto : prototypes) {
        proto.resize(size_t(channels) * size * size);
        for (int c = 0; c < channels; ++c) {
            const int base = kBaseMin + int(random() % kBaseSpan);
            int block[kGrid][kGrid];
            for (auto& row : block)
                for (int& cell : row)
                    cell = int(random() % (2 * kBlockAmp + 1)) - kBlockAmp;
            uint8_t* plane = proto.data() + size_t(c) * size * size;
            for (int y = 0; y < size; ++y)
                for (int x = 0; x < size; ++x)
                    plane[y * size + x] = uint8_t(base + block[y * kGrid / size][x * kGrid / size]);
        }
    }
    return prototypes;
}

// Per-channel mean/std on the 0..1 scale for classes drawn uniformly.
void setStatistics(const std::vector<std::vector<uint8_t>>& prototypes, ImageDataset& out) {
    const size_t plane = size_t(out.height) * out.width;
    for (int c = 0; c < out.channels; ++c) {
        double sum = 0, sum_sq = 0;
        for (const auto& proto : prototypes)
            for (size_t i = 0; i < plane; ++i) {
                const double v = proto[c * plane + i];
                sum += v;
                sum_sq += v * v;
            }
        const double n = double(plane) * prototypes.size();
        const double mean = sum / n;
        const double variance = sum_sq / n - mean * mean + kNoiseVariance;
        out.mean.push_back(float(mean / 255.0));
        out.std.push_back(float(std::sqrt(variance) / 255.0));
    }
}

void fillSamples(const std::vector<std::vector<uint8_t>>& prototypes, uint64_t seed,
                 ImageDataset& out) {
    std::mt19937_64 random(seed);
    const size_t bytes = size_t(out.imageBytes());
    for (size_t i = 0; i < out.labels.size(); ++i) {
        const auto label = int64_t(random() % prototypes.size());
        out.labels[i] = label;
        const uint8_t* proto = prototypes[size_t(label)].data();
        uint8_t* dst = out.pixels.data() + i * bytes;
        uint64_t bits = 0;
        for (size_t p = 0; p < bytes; ++p) {
            if (p % 4 == 0) bits = random(); // four 16-bit noise draws per call
            const int noise = int(((bits & 0xffff) * (2 * kNoiseAmp + 1)) >> 16) - kNoiseAmp;
            bits >>= 16;
            dst[p] = uint8_t(proto[p] + noise);
        }
    }
}

} // namespace

ImageDataset makeSynthetic(int64_t samples, int channels, int size, int num_classes,
                           uint64_t pattern_seed, uint64_t sample_seed) {
    checkPositive(samples, "synthetic_samples");
    checkPositive(channels, "synthetic_channels");
    checkPositive(size, "image_size");
    checkPositive(num_classes, "num_classes");
    ImageDataset out;
    out.name = "synthetic";
    out.channels = channels;
    out.height = out.width = size;
    out.num_classes = num_classes;
    out.labels.resize(size_t(samples));
    out.pixels.resize(size_t(samples) * size_t(out.imageBytes()));
    const auto prototypes = makePrototypes(channels, size, num_classes, pattern_seed);
    setStatistics(prototypes, out);
    fillSamples(prototypes, sample_seed, out);
    return out;
}

ImageDataset makeSynthetic(int64_t samples, int channels, int size, int num_classes,
                           uint64_t seed) {
    // Distinct streams, so labels are not correlated with prototype draws.
    return makeSynthetic(samples, channels, size, num_classes, seed, mixSeeds(seed, 1));
}

} // namespace ts
