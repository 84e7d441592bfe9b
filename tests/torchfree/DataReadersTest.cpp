// Dataset readers: valid and corrupt IDX / CIFAR files generated on the fly,
// the real Fashion-MNIST when installed, synthetic data and dispatch.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "DataTestFiles.h"
#include "datasets/Dataset.h"

namespace ts {
namespace {

using data_test::TempFolder;

// Runs `read`, expects a DataError and returns its message.
std::string dataErrorOf(const std::function<void()>& read) {
    try {
        read();
    } catch (const DataError& error) {
        return error.what();
    }
    ADD_FAILURE() << "expected a DataError";
    return {};
}

void expectPaddedFashionImages(const ImageDataset& data, int64_t count) {
    ASSERT_EQ(data.size(), count);
    EXPECT_EQ(data.channels, 1);
    EXPECT_EQ(data.height, 32);
    EXPECT_EQ(data.width, 32);
    EXPECT_EQ(data.num_classes, 10);
    ASSERT_EQ(data.pixels.size(), size_t(count) * 32 * 32);
    for (int64_t i = 0; i < count; ++i) {
        EXPECT_EQ(data.labels[size_t(i)], i % 10);
        const uint8_t* image = data.image(i);
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 32; ++x) {
                const bool border = y < 2 || y >= 30 || x < 2 || x >= 30;
                const uint8_t expected = border ? 0 : data_test::testPixel(i, y - 2, x - 2);
                ASSERT_EQ(image[y * 32 + x], expected) << "image " << i << " at " << y << "," << x;
            }
    }
}

TEST(DataReadersIdx, ReadsGzipFilesAndPadsTo32) {
    TempFolder folder;
    data_test::writeFashionMnist(folder.path(), 12, 5, true);
    expectPaddedFashionImages(readFashionMnist(folder.path(), Split::Train), 12);
    expectPaddedFashionImages(readFashionMnist(folder.path(), Split::Test), 5);
    const ImageDataset data = readFashionMnist(folder.path(), Split::Test);
    EXPECT_EQ(data.name, "fashion-mnist");
    EXPECT_FLOAT_EQ(data.mean.at(0), 0.2860f);
    EXPECT_FLOAT_EQ(data.std.at(0), 0.3530f);
}

TEST(DataReadersIdx, ReadsUncompressedFiles) {
    TempFolder folder;
    data_test::writeFashionMnist(folder.path(), 7, 3, false);
    expectPaddedFashionImages(readFashionMnist(folder.path(), Split::Train), 7);
    expectPaddedFashionImages(readFashionMnist(folder.path(), Split::Test), 3);
}

TEST(DataReadersIdx, WrongMagicNamesFileAndMagic) {
    TempFolder folder;
    data_test::writeFashionMnist(folder.path(), 4, 2, true);
    const auto path = folder.path() / "train-images-idx3-ubyte.gz";
    data_test::writeBytes(path, data_test::idxImages(4, 28, 28, 0x00000801), true);
    const std::string message = dataErrorOf([&] { readFashionMnist(folder.path(), Split::Train); });
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("0x00000801"), std::string::npos) << message;
    EXPECT_NE(message.find("0x00000803"), std::string::npos) << message;
}

TEST(DataReadersIdx, TruncatedFileReportsExpectedAndActualSize) {
    for (bool gzip : {false, true}) {
        TempFolder folder;
        data_test::writeFashionMnist(folder.path(), 4, 2, gzip);
        const auto path =
            folder.path() / (gzip ? "t10k-images-idx3-ubyte.gz" : "t10k-images-idx3-ubyte");
        auto bytes = data_test::idxImages(2, 28, 28);
        bytes.resize(bytes.size() - 100);
        data_test::writeBytes(path, bytes, gzip);
        const std::string message =
            dataErrorOf([&] { readFashionMnist(folder.path(), Split::Test); });
        EXPECT_NE(message.find(path.string()), std::string::npos) << message;
        EXPECT_NE(message.find("truncated"), std::string::npos) << message;
        EXPECT_NE(message.find(std::to_string(16 + 2 * 784)), std::string::npos) << message;
        EXPECT_NE(message.find(std::to_string(16 + 2 * 784 - 100)), std::string::npos) << message;
    }
}

TEST(DataReadersIdx, CutGzipStreamIsReportedAsTruncated) {
    TempFolder folder;
    data_test::writeFashionMnist(folder.path(), 30, 2, true);
    const auto path = folder.path() / "train-images-idx3-ubyte.gz";
    auto compressed = data_test::readBytes(path);
    compressed.resize(compressed.size() / 2);
    data_test::writeBytes(path, compressed);
    const std::string message = dataErrorOf([&] { readFashionMnist(folder.path(), Split::Train); });
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("truncated"), std::string::npos) << message;
}

TEST(DataReadersIdx, CorruptGzipDataNamesFile) {
    TempFolder folder;
    data_test::writeFashionMnist(folder.path(), 20, 2, true);
    const auto path = folder.path() / "train-labels-idx1-ubyte.gz";
    auto compressed = data_test::readBytes(path);
    for (size_t i = 12; i < compressed.size(); ++i)
        compressed[i] ^= 0x5a;
    data_test::writeBytes(path, compressed);
    const std::string message = dataErrorOf([&] { readFashionMnist(folder.path(), Split::Train); });
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
}

TEST(DataReadersIdx, TooShortForHeaderIsReported) {
    TempFolder folder;
    data_test::writeFashionMnist(folder.path(), 4, 2, false);
    const auto path = folder.path() / "train-labels-idx1-ubyte";
    data_test::writeBytes(path, {0, 0, 8});
    const std::string message = dataErrorOf([&] { readFashionMnist(folder.path(), Split::Train); });
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("header"), std::string::npos) << message;
}

TEST(DataReadersIdx, ImageAndLabelCountMismatchNamesBothFiles) {
    TempFolder folder;
    data_test::writeFashionMnist(folder.path(), 6, 2, true);
    const auto labels = folder.path() / "train-labels-idx1-ubyte.gz";
    data_test::writeBytes(labels, data_test::idxLabels(5), true);
    const std::string message = dataErrorOf([&] { readFashionMnist(folder.path(), Split::Train); });
    EXPECT_NE(message.find(labels.string()), std::string::npos) << message;
    EXPECT_NE(message.find("train-images-idx3-ubyte.gz"), std::string::npos) << message;
    EXPECT_NE(message.find("6 images"), std::string::npos) << message;
    EXPECT_NE(message.find("5 labels"), std::string::npos) << message;
}

TEST(DataReadersIdx, WrongImageSizeAndBadLabelAreReported) {
    TempFolder folder;
    data_test::writeFashionMnist(folder.path(), 3, 3, false);
    const auto images = folder.path() / "t10k-images-idx3-ubyte";
    data_test::writeBytes(images, data_test::idxImages(3, 30, 28));
    std::string message = dataErrorOf([&] { readFashionMnist(folder.path(), Split::Test); });
    EXPECT_NE(message.find(images.string()), std::string::npos) << message;
    EXPECT_NE(message.find("30x28"), std::string::npos) << message;

    const auto labels = folder.path() / "train-labels-idx1-ubyte";
    auto bytes = data_test::idxLabels(3);
    bytes.back() = 11;
    data_test::writeBytes(labels, bytes);
    message = dataErrorOf([&] { readFashionMnist(folder.path(), Split::Train); });
    EXPECT_NE(message.find(labels.string()), std::string::npos) << message;
    EXPECT_NE(message.find("label 11"), std::string::npos) << message;
}

TEST(DataReadersIdx, MissingFileNamesFullPath) {
    TempFolder folder;
    const std::string message = dataErrorOf([&] { readFashionMnist(folder.path(), Split::Test); });
    EXPECT_NE(message.find((folder.path() / "t10k-images-idx3-ubyte.gz").string()),
              std::string::npos)
        << message;
}

TEST(DataReadersFashionMnist, RealDatasetWhenInstalled) {
    const auto dir = defaultDataDir("fashion-mnist");
    if (!std::filesystem::exists(dir / "train-images-idx3-ubyte.gz"))
        GTEST_SKIP() << "Fashion-MNIST is not installed in " << dir;
    const ImageDataset train = readFashionMnist(dir, Split::Train);
    const ImageDataset test = readFashionMnist(dir, Split::Test);
    EXPECT_EQ(train.size(), 60000);
    EXPECT_EQ(test.size(), 10000);
    for (const ImageDataset* data : {&train, &test}) {
        EXPECT_EQ(data->height, 32);
        EXPECT_EQ(data->width, 32);
        EXPECT_EQ(data->pixels.size(), size_t(data->size()) * 1024);
        // The padded border is zero; the mean of the 28x28 content matches 0.2860.
        double sum = 0;
        for (int64_t i = 0; i < data->size(); ++i) {
            const uint8_t* image = data->image(i);
            ASSERT_EQ(image[0] + image[31] + image[32 * 31], 0);
            for (int y = 2; y < 30; ++y)
                for (int x = 2; x < 30; ++x)
                    sum += image[y * 32 + x];
        }
        EXPECT_NEAR(sum / (255.0 * 784 * double(data->size())), 0.2860, 0.003);
    }
}

// Writes a CIFAR-10 layout in dir: 3 records per training batch, 2 test records.
void writeCifar10(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    const auto label = [](int64_t i, int) { return (i * 3) % 10; };
    for (int b = 1; b <= 5; ++b)
        data_test::writeBytes(dir / ("data_batch_" + std::to_string(b) + ".bin"),
                              data_test::cifarRecords(3, 1, (b - 1) * 3, label));
    data_test::writeBytes(dir / "test_batch.bin", data_test::cifarRecords(2, 1, 100, label));
}

void expectCifarPixels(const ImageDataset& data, int64_t first_image) {
    for (int64_t i = 0; i < data.size(); ++i)
        for (int64_t c = 0; c < 3; ++c)
            for (int64_t y = 0; y < 32; y += 7)
                for (int64_t x = 0; x < 32; x += 5)
                    ASSERT_EQ(data.image(i)[(c * 32 + y) * 32 + x],
                              data_test::testPixel(first_image + i, c * 32 + y, x));
}

TEST(DataReadersCifar, ReadsCifar10FromFolderOrItsParent) {
    TempFolder folder;
    const auto dir = folder.path() / "cifar-10-batches-bin";
    writeCifar10(dir);
    for (const auto& given : {dir, folder.path()}) {
        const ImageDataset train = readCifar10(given, Split::Train);
        ASSERT_EQ(train.size(), 15);
        EXPECT_EQ(train.channels, 3);
        EXPECT_EQ(train.height, 32);
        EXPECT_EQ(train.num_classes, 10);
        EXPECT_EQ(train.mean.size(), 3u);
        for (int64_t i = 0; i < 15; ++i)
            EXPECT_EQ(train.labels[size_t(i)], (i * 3) % 10);
        expectCifarPixels(train, 0);
        const ImageDataset test = readCifar10(given, Split::Test);
        ASSERT_EQ(test.size(), 2);
        EXPECT_EQ(test.labels[1], (101 * 3) % 10);
        expectCifarPixels(test, 100);
    }
}

TEST(DataReadersCifar, Cifar100UsesFineLabels) {
    TempFolder folder;
    const auto dir = folder.path() / "cifar-100-binary";
    std::filesystem::create_directories(dir);
    // coarse = i % 20, fine = 50 + i.
    const auto label = [](int64_t i, int k) { return k == 0 ? i % 20 : 50 + i; };
    data_test::writeBytes(dir / "train.bin", data_test::cifarRecords(4, 2, 0, label));
    data_test::writeBytes(dir / "test.bin", data_test::cifarRecords(2, 2, 10, label));
    const ImageDataset train = readCifar100(folder.path(), Split::Train);
    ASSERT_EQ(train.size(), 4);
    EXPECT_EQ(train.num_classes, 100);
    EXPECT_EQ(train.name, "cifar100");
    for (int64_t i = 0; i < 4; ++i)
        EXPECT_EQ(train.labels[size_t(i)], 50 + i);
    expectCifarPixels(train, 0);
    const ImageDataset test = readCifar100(dir, Split::Test);
    EXPECT_EQ(test.labels.at(1), 61);
    expectCifarPixels(test, 10);
}

TEST(DataReadersCifar, SizeNotMultipleOfRecordIsReported) {
    TempFolder folder;
    writeCifar10(folder.path());
    const auto path = folder.path() / "data_batch_4.bin";
    auto bytes = data_test::readBytes(path);
    bytes.pop_back();
    data_test::writeBytes(path, bytes);
    const std::string message = dataErrorOf([&] { readCifar10(folder.path(), Split::Train); });
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(bytes.size())), std::string::npos) << message;
    EXPECT_NE(message.find("3073"), std::string::npos) << message;
}

TEST(DataReadersCifar, MissingFileNamesPathAndBinaryVersion) {
    TempFolder folder;
    writeCifar10(folder.path());
    std::filesystem::remove(folder.path() / "data_batch_5.bin");
    std::string message = dataErrorOf([&] { readCifar10(folder.path(), Split::Train); });
    EXPECT_NE(message.find((folder.path() / "data_batch_5.bin").string()), std::string::npos)
        << message;
    EXPECT_NE(message.find("binary version"), std::string::npos) << message;

    message = dataErrorOf([&] { readCifar100(folder.path(), Split::Test); });
    EXPECT_NE(message.find((folder.path() / "test.bin").string()), std::string::npos) << message;
    EXPECT_NE(message.find("cifar-100-binary"), std::string::npos) << message;
}

TEST(DataReadersCifar, LabelOutOfRangeIsReported) {
    TempFolder folder;
    const auto label = [](int64_t, int) { return 10; };
    data_test::writeBytes(folder.path() / "test_batch.bin",
                          data_test::cifarRecords(1, 1, 0, label));
    const std::string message = dataErrorOf([&] { readCifar10(folder.path(), Split::Test); });
    EXPECT_NE(message.find("test_batch.bin"), std::string::npos) << message;
    EXPECT_NE(message.find("label 10"), std::string::npos) << message;
}

TEST(DataReadersSynthetic, SameSeedSameDataDifferentSeedDifferent) {
    const ImageDataset a = makeSynthetic(64, 3, 16, 5, 7);
    const ImageDataset b = makeSynthetic(64, 3, 16, 5, 7);
    const ImageDataset c = makeSynthetic(64, 3, 16, 5, 8);
    EXPECT_EQ(a.pixels, b.pixels);
    EXPECT_EQ(a.labels, b.labels);
    EXPECT_NE(a.pixels, c.pixels);
    EXPECT_EQ(a.size(), 64);
    EXPECT_EQ(a.pixels.size(), 64u * 3 * 16 * 16);
    EXPECT_EQ(a.num_classes, 5);
    for (int64_t label : a.labels)
        EXPECT_TRUE(label >= 0 && label < 5);
}

TEST(DataReadersSynthetic, StatisticsMatchThePixels) {
    const ImageDataset data = makeSynthetic(2000, 2, 8, 4, 3);
    const size_t plane = 64;
    for (int c = 0; c < 2; ++c) {
        double sum = 0, sum_sq = 0;
        for (int64_t i = 0; i < data.size(); ++i)
            for (size_t p = 0; p < plane; ++p) {
                const double v = data.image(i)[c * plane + p] / 255.0;
                sum += v;
                sum_sq += v * v;
            }
        const double n = double(data.size() * plane);
        const double mean = sum / n;
        EXPECT_NEAR(data.mean[size_t(c)], mean, 0.02);
        EXPECT_NEAR(data.std[size_t(c)], std::sqrt(sum_sq / n - mean * mean), 0.02);
    }
}

// Nearest class mean classifies the samples: the class is learnable.
TEST(DataReadersSynthetic, ClassesAreSeparable) {
    const ImageDataset train = makeSynthetic(400, 3, 8, 4, 11, 1);
    const ImageDataset test = makeSynthetic(100, 3, 8, 4, 11, 2);
    const size_t bytes = size_t(train.imageBytes());
    std::vector<std::vector<double>> means(4, std::vector<double>(bytes, 0.0));
    std::vector<int> counts(4, 0);
    for (int64_t i = 0; i < train.size(); ++i) {
        const auto label = size_t(train.labels[size_t(i)]);
        ++counts[label];
        for (size_t p = 0; p < bytes; ++p)
            means[label][p] += train.image(i)[p];
    }
    int correct = 0;
    for (int64_t i = 0; i < test.size(); ++i) {
        size_t best = 0;
        double best_distance = 1e300;
        for (size_t k = 0; k < 4; ++k) {
            double distance = 0;
            for (size_t p = 0; p < bytes; ++p) {
                const double d = test.image(i)[p] - means[k][p] / std::max(counts[k], 1);
                distance += d * d;
            }
            if (distance < best_distance) best_distance = distance, best = k;
        }
        correct += int64_t(best) == test.labels[size_t(i)];
    }
    EXPECT_GE(correct, 90);
}

TEST(DataReadersDispatch, SyntheticSplitsShareClassesButNotImages) {
    ExperimentConfig config;
    config.dataset = "synthetic";
    config.synthetic_samples = 40;
    config.synthetic_channels = 2;
    config.image_size = 12;
    config.num_classes = 3;
    const ImageDataset train = loadDataset(config, Split::Train);
    const ImageDataset test = loadDataset(config, Split::Test);
    EXPECT_EQ(train.size(), 40);
    EXPECT_EQ(test.size(), 10);
    EXPECT_EQ(train.channels, 2);
    EXPECT_EQ(train.height, 12);
    EXPECT_EQ(train.num_classes, 3);
    EXPECT_EQ(train.mean, test.mean);
    EXPECT_NE(std::vector<uint8_t>(train.pixels.begin(), train.pixels.begin() + 288),
              std::vector<uint8_t>(test.pixels.begin(), test.pixels.begin() + 288));
    config.synthetic_samples = 2;
    EXPECT_EQ(loadDataset(config, Split::Test).size(), 1);
}

TEST(DataReadersDispatch, DefaultDirsDataDirAndUnknownDataset) {
    EXPECT_EQ(defaultDataDir("fashion-mnist"), "/usr/share/datasets/fashion-mnist");
    EXPECT_EQ(defaultDataDir("cifar10"), std::filesystem::path("data/cifar-10-batches-bin"));
    EXPECT_EQ(defaultDataDir("cifar100"), std::filesystem::path("data/cifar-100-binary"));

    TempFolder folder;
    data_test::writeFashionMnist(folder.path(), 3, 2, false);
    ExperimentConfig config;
    config.dataset = "fashion-mnist";
    config.data_dir = folder.path().string();
    EXPECT_EQ(loadDataset(config, Split::Test).size(), 2);
    config.dataset = "cifar10";
    const std::string missing = dataErrorOf([&] { loadDataset(config, Split::Test); });
    EXPECT_NE(missing.find("test_batch.bin"), std::string::npos) << missing;
    config.dataset = "imagenet";
    const std::string unknown = dataErrorOf([&] { loadDataset(config, Split::Train); });
    EXPECT_NE(unknown.find("imagenet"), std::string::npos) << unknown;
}

} // namespace
} // namespace ts
