#pragma once
// Image classification datasets held in memory as uint8 CHW pixels. No torch.
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/ExperimentConfig.h"

namespace ts {

enum class Split { Train, Test };

// Thrown for missing, truncated or mis-sized data files; what() names the file
// and what was expected.
class DataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ImageDataset {
    std::string name; // "fashion-mnist", "cifar10", ...
    int channels = 0, height = 0, width = 0;
    int num_classes = 0;
    std::vector<uint8_t> pixels; // size() * channels * height * width, CHW per image
    std::vector<int64_t> labels;
    std::vector<float> mean; // per channel, on the 0..1 scale
    std::vector<float> std;

    int64_t size() const { return static_cast<int64_t>(labels.size()); }
    int64_t imageBytes() const { return int64_t(channels) * height * width; }
    const uint8_t* image(int64_t i) const { return pixels.data() + i * imageBytes(); }
};

// Default location of a dataset when data_dir is empty.
std::filesystem::path defaultDataDir(const std::string& dataset);

// Fashion-MNIST IDX files (gzip or plain), padded from 28x28 to 32x32.
ImageDataset readFashionMnist(const std::filesystem::path& dir, Split split);
// CIFAR-10 binary version: data_batch_1..5.bin / test_batch.bin.
ImageDataset readCifar10(const std::filesystem::path& dir, Split split);
// CIFAR-100 binary version: train.bin / test.bin (coarse + fine label; fine used).
ImageDataset readCifar100(const std::filesystem::path& dir, Split split);
// Seeded random images whose class is learnable (class-dependent pattern).
ImageDataset makeSynthetic(int64_t samples, int channels, int size, int num_classes, uint64_t seed);
// Same, with the class patterns drawn from pattern_seed and the samples
// (labels, noise) from sample_seed: splits that share pattern_seed share
// their classes but not their images.
ImageDataset makeSynthetic(int64_t samples, int channels, int size, int num_classes,
                           uint64_t pattern_seed, uint64_t sample_seed);

// Dispatch on config.dataset / data_dir / synthetic_* keys.
ImageDataset loadDataset(const ExperimentConfig& config, Split split);

} // namespace ts
