// CIFAR-10 / CIFAR-100 "binary version": fixed-size records of label byte(s)
// followed by 3072 pixel bytes (1024 red, 1024 green, 1024 blue, row-major),
// which is already the CHW layout ImageDataset holds.
#include <cstring>
#include <string>

#include "datasets/Dataset.h"
#include "datasets/FileBytes.h"

namespace ts {

namespace {

constexpr int kSide = 32;
constexpr int kChannels = 3;
constexpr int64_t kPixels = kChannels * kSide * kSide;

struct CifarLayout {
    std::string title;   // "CIFAR-10"
    std::string name;    // ImageDataset::name
    std::string folder;  // folder inside the official tarball
    std::string archive; // the tarball's file name
    std::vector<std::string> train, test;
    int label_bytes = 1; // bytes before the pixels
    int label_index = 0; // which of them is the class used
    int num_classes = 10;
    std::vector<float> mean, std;
};

const CifarLayout& cifar10() {
    static const CifarLayout layout = [] {
        CifarLayout l;
        l.title = "CIFAR-10";
        l.name = "cifar10";
        l.folder = "cifar-10-batches-bin";
        l.archive = "cifar-10-binary.tar.gz";
        for (int b = 1; b <= 5; ++b)
            l.train.push_back("data_batch_" + std::to_string(b) + ".bin");
        l.test = {"test_batch.bin"};
        l.mean = {0.4914f, 0.4822f, 0.4465f};
        l.std = {0.2470f, 0.2435f, 0.2616f};
        return l;
    }();
    return layout;
}

const CifarLayout& cifar100() {
    static const CifarLayout layout = [] {
        CifarLayout l;
        l.title = "CIFAR-100";
        l.name = "cifar100";
        l.folder = "cifar-100-binary";
        l.archive = "cifar-100-binary.tar.gz";
        l.train = {"train.bin"};
        l.test = {"test.bin"};
        // Records are <coarse label> <fine label> <pixels>; the 100 fine classes are used.
        l.label_bytes = 2;
        l.label_index = 1;
        l.num_classes = 100;
        l.mean = {0.5071f, 0.4865f, 0.4409f};
        l.std = {0.2673f, 0.2564f, 0.2762f};
        return l;
    }();
    return layout;
}

std::string fileList(const CifarLayout& layout) {
    std::string text;
    const auto all = [&] {
        auto names = layout.train;
        names.insert(names.end(), layout.test.begin(), layout.test.end());
        return names;
    }();
    for (size_t i = 0; i < all.size(); ++i)
        text += (i == 0 ? "" : i + 1 == all.size() ? " and " : ", ") + all[i];
    return text;
}

// `dir` may be the folder holding the .bin files or its parent (where the
// official tarball was extracted).
std::filesystem::path resolveDir(const std::filesystem::path& dir, const CifarLayout& layout) {
    std::error_code ec;
    if (std::filesystem::exists(dir / layout.test.front(), ec)) return dir;
    if (std::filesystem::is_directory(dir / layout.folder, ec)) return dir / layout.folder;
    return dir;
}

void requireFile(const std::filesystem::path& path, const std::filesystem::path& dir,
                 const CifarLayout& layout) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return;
    throw DataError(layout.title + " file " + quoted(path) + " does not exist. Expected " +
                    fileList(layout) + " in " + quoted(dir) + " or in its subfolder " +
                    layout.folder + "; download the \"" + layout.title + " binary version\" (" +
                    layout.archive +
                    ") from https://www.cs.toronto.edu/~kriz/cifar.html and extract it there.");
}

void appendRecords(const std::filesystem::path& path, const CifarLayout& layout,
                   ImageDataset& out) {
    const std::vector<uint8_t> bytes = readFileBytes(path).bytes;
    const int64_t record = layout.label_bytes + kPixels;
    if (bytes.empty() || int64_t(bytes.size()) % record != 0)
        throw DataError(layout.title + " file " + quoted(path) + " has " +
                        std::to_string(bytes.size()) +
                        " bytes, which is not a positive multiple "
                        "of the " +
                        std::to_string(record) + "-byte record size (" +
                        std::to_string(layout.label_bytes) + " label byte(s) + 3072 pixels).");
    const int64_t count = int64_t(bytes.size()) / record;
    const size_t first = out.labels.size();
    out.labels.resize(first + size_t(count));
    out.pixels.resize(out.labels.size() * size_t(kPixels));
    for (int64_t i = 0; i < count; ++i) {
        const uint8_t* rec = bytes.data() + i * record;
        const int label = rec[layout.label_index];
        if (label >= layout.num_classes)
            throw DataError(layout.title + " file " + quoted(path) + " has label " +
                            std::to_string(label) + " in record " + std::to_string(i) +
                            "; labels must be 0.." + std::to_string(layout.num_classes - 1) + ".");
        out.labels[first + size_t(i)] = label;
        std::memcpy(out.pixels.data() + (first + size_t(i)) * kPixels, rec + layout.label_bytes,
                    kPixels);
    }
}

ImageDataset readCifar(const std::filesystem::path& given_dir, Split split,
                       const CifarLayout& layout) {
    const auto dir = resolveDir(given_dir, layout);
    const auto& names = split == Split::Train ? layout.train : layout.test;
    for (const auto& name : names)
        requireFile(dir / name, given_dir, layout);

    ImageDataset out;
    out.name = layout.name;
    out.channels = kChannels;
    out.height = out.width = kSide;
    out.num_classes = layout.num_classes;
    out.mean = layout.mean;
    out.std = layout.std;
    for (const auto& name : names)
        appendRecords(dir / name, layout, out);
    return out;
}

} // namespace

ImageDataset readCifar10(const std::filesystem::path& dir, Split split) {
    return readCifar(dir, split, cifar10());
}

ImageDataset readCifar100(const std::filesystem::path& dir, Split split) {
    return readCifar(dir, split, cifar100());
}

} // namespace ts
