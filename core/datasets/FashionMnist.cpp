// Fashion-MNIST: IDX image/label files (gzip as distributed, or plain),
// 28x28 grey images padded to 32x32 so CIFAR-shaped models take them as-is.
#include <cstring>
#include <string>

#include "datasets/Dataset.h"
#include "datasets/FileBytes.h"
#include "datasets/IdxFile.h"

namespace ts {

namespace {

constexpr int kSide = 28;
constexpr int kPad = 2;
constexpr int kPaddedSide = kSide + 2 * kPad;
constexpr int kClasses = 10;

// The gzip file as distributed, else the same name uncompressed.
std::filesystem::path locate(const std::filesystem::path& dir, const std::string& name) {
    std::error_code ec;
    const auto gz = dir / (name + ".gz");
    if (std::filesystem::exists(gz, ec)) return gz;
    const auto plain = dir / name;
    if (std::filesystem::exists(plain, ec)) return plain;
    throw DataError("Fashion-MNIST file " + quoted(gz) + " (or uncompressed " + quoted(plain) +
                    ") does not exist. Expected train-images-idx3-ubyte, "
                    "train-labels-idx1-ubyte, t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte "
                    "(optionally .gz) in " +
                    quoted(dir) +
                    "; Debian's dataset-fashion-mnist package installs them in "
                    "/usr/share/datasets/fashion-mnist.");
}

void checkShapes(const std::filesystem::path& images_path, const IdxArray& images,
                 const std::filesystem::path& labels_path, const IdxArray& labels) {
    if (images.dims[1] != kSide || images.dims[2] != kSide)
        throw DataError("Fashion-MNIST image file " + quoted(images_path) + " holds " +
                        std::to_string(images.dims[1]) + "x" + std::to_string(images.dims[2]) +
                        " images, expected 28x28.");
    if (images.dims[0] != labels.dims[0])
        throw DataError("Fashion-MNIST image file " + quoted(images_path) + " holds " +
                        std::to_string(images.dims[0]) + " images but label file " +
                        quoted(labels_path) + " holds " + std::to_string(labels.dims[0]) +
                        " labels; the counts must match.");
}

void copyPadded(const IdxArray& images, ImageDataset& out) {
    const int64_t count = images.dims[0];
    out.pixels.assign(size_t(count) * kPaddedSide * kPaddedSide, 0);
    for (int64_t i = 0; i < count; ++i) {
        const uint8_t* src = images.values() + i * kSide * kSide;
        uint8_t* dst = out.pixels.data() + i * kPaddedSide * kPaddedSide;
        for (int y = 0; y < kSide; ++y)
            std::memcpy(dst + (y + kPad) * kPaddedSide + kPad, src + y * kSide, kSide);
    }
}

void copyLabels(const std::filesystem::path& labels_path, const IdxArray& labels,
                ImageDataset& out) {
    out.labels.resize(size_t(labels.dims[0]));
    for (int64_t i = 0; i < labels.dims[0]; ++i) {
        const uint8_t label = labels.values()[i];
        if (label >= kClasses)
            throw DataError("Fashion-MNIST label file " + quoted(labels_path) + " has label " +
                            std::to_string(label) + " at index " + std::to_string(i) +
                            "; labels must be 0..9.");
        out.labels[size_t(i)] = label;
    }
}

} // namespace

ImageDataset readFashionMnist(const std::filesystem::path& dir, Split split) {
    const std::string prefix = split == Split::Train ? "train" : "t10k";
    const auto images_path = locate(dir, prefix + "-images-idx3-ubyte");
    const auto labels_path = locate(dir, prefix + "-labels-idx1-ubyte");
    const IdxArray images = readIdxUbyte(images_path, 3, "image");
    const IdxArray labels = readIdxUbyte(labels_path, 1, "label");
    checkShapes(images_path, images, labels_path, labels);

    ImageDataset out;
    out.name = "fashion-mnist";
    out.channels = 1;
    out.height = out.width = kPaddedSide;
    out.num_classes = kClasses;
    // The usual Fashion-MNIST statistics (0..1 scale, computed on the 28x28 images).
    out.mean = {0.2860f};
    out.std = {0.3530f};
    copyPadded(images, out);
    copyLabels(labels_path, labels, out);
    return out;
}

} // namespace ts
