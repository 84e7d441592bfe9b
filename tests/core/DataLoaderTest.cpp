// DataLoader: batching, normalisation, augmentation, determinism across
// worker counts, epochs, restarts, skipping and cancellation.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <set>
#include <thread>

#include "data/BatchPrefetcher.h"
#include "data/DataLoader.h"
#include "datasets/SeededRandom.h"

namespace ts {
namespace {

// Sample i has label i, so batch labels reveal the visiting order.
ImageDataset indexedDataset(int64_t count, int channels = 2, int side = 8) {
    ImageDataset data;
    data.name = "indexed";
    data.channels = channels;
    data.height = data.width = side;
    data.num_classes = int(count);
    data.mean.assign(size_t(channels), 0.5f);
    data.std.assign(size_t(channels), 0.25f);
    data.pixels.resize(size_t(count * data.imageBytes()));
    for (size_t p = 0; p < data.pixels.size(); ++p)
        data.pixels[p] = uint8_t(splitmix64(p) >> 56);
    for (int64_t i = 0; i < count; ++i)
        data.labels.push_back(i);
    return data;
}

std::vector<Batch> wholeEpoch(DataLoader& loader) {
    std::vector<Batch> batches;
    while (auto batch = loader.next())
        batches.push_back(std::move(*batch));
    return batches;
}

std::vector<Batch> epochOf(const ImageDataset& data, LoaderOptions options, int epoch) {
    DataLoader loader(data, options);
    loader.startEpoch(epoch);
    return wholeEpoch(loader);
}

void expectSameBatches(const std::vector<Batch>& a, const std::vector<Batch>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].index, b[i].index);
        EXPECT_TRUE(torch::equal(a[i].labels, b[i].labels)) << "batch " << i;
        EXPECT_TRUE(torch::equal(a[i].images, b[i].images)) << "batch " << i;
    }
}

std::vector<int64_t> labelsOf(const std::vector<Batch>& batches) {
    std::vector<int64_t> labels;
    for (const auto& batch : batches)
        for (int64_t i = 0; i < batch.labels.size(0); ++i)
            labels.push_back(batch.labels[i].item<int64_t>());
    return labels;
}

// The image as the loader should normalise it, before augmentation.
torch::Tensor normalised(const ImageDataset& data, int64_t sample) {
    auto raw = torch::from_blob(const_cast<uint8_t*>(data.image(sample)),
                                {data.channels, data.height, data.width}, torch::kUInt8);
    return (raw.to(torch::kFloat32) / 255.0f - 0.5f) / 0.25f;
}

TEST(DataLoaderBatches, CountsShapesAndDropLast) {
    const ImageDataset data = indexedDataset(10);
    LoaderOptions options;
    options.batch_size = 4;
    options.shuffle = false;
    auto batches = epochOf(data, options, 0);
    ASSERT_EQ(batches.size(), 2u);
    EXPECT_EQ(batches[1].images.sizes(), (std::vector<int64_t>{4, 2, 8, 8}));
    EXPECT_EQ(batches[1].images.scalar_type(), torch::kFloat32);
    EXPECT_EQ(batches[1].labels.scalar_type(), torch::kInt64);
    EXPECT_EQ(batches[1].index, 1);

    options.drop_last = false;
    DataLoader loader(data, options);
    EXPECT_EQ(loader.batchesPerEpoch(), 3);
    batches = wholeEpoch(loader);
    ASSERT_EQ(batches.size(), 3u);
    EXPECT_EQ(batches[2].images.size(0), 2);
    EXPECT_EQ(labelsOf(batches), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    EXPECT_FALSE(loader.next().has_value());

    options.max_batches = 2;
    EXPECT_EQ(DataLoader(data, options).batchesPerEpoch(), 2);
    EXPECT_EQ(epochOf(data, options, 0).size(), 2u);
}

TEST(DataLoaderBatches, NormalisesAKnownImage) {
    ImageDataset data = indexedDataset(2, 3, 4);
    data.mean = {0.5f, 0.2f, 0.0f};
    data.std = {0.25f, 0.5f, 2.0f};
    std::fill(data.pixels.begin(), data.pixels.end(), uint8_t(0));
    for (int c = 0; c < 3; ++c)
        data.pixels[size_t(c * 16 + 5)] = 255; // (y 1, x 1) of image 0
    LoaderOptions options;
    options.batch_size = 2;
    options.shuffle = false;
    const Batch batch = epochOf(data, options, 0).at(0);
    const float expected_255[] = {2.0f, 1.6f, 0.5f};
    const float expected_0[] = {-2.0f, -0.4f, 0.0f};
    for (int c = 0; c < 3; ++c) {
        EXPECT_FLOAT_EQ(batch.images[0][c][1][1].item<float>(), expected_255[c]);
        EXPECT_FLOAT_EQ(batch.images[0][c][2][3].item<float>(), expected_0[c]);
        EXPECT_FLOAT_EQ(batch.images[1][c][1][1].item<float>(), expected_0[c]);
    }
}

TEST(DataLoaderBatches, ChannelsLastHoldsTheSameValues) {
    const ImageDataset data = indexedDataset(16, 3, 8);
    LoaderOptions options;
    options.batch_size = 8;
    options.augment = true;
    const auto plain = epochOf(data, options, 1);
    options.channels_last = true;
    const auto nhwc = epochOf(data, options, 1);
    ASSERT_EQ(plain.size(), nhwc.size());
    for (size_t i = 0; i < plain.size(); ++i) {
        EXPECT_TRUE(nhwc[i].images.is_contiguous(at::MemoryFormat::ChannelsLast));
        EXPECT_TRUE(torch::equal(plain[i].images, nhwc[i].images));
    }
}

// Every augmented image is one of the 9x9x2 crops/flips of the zero-padded original.
TEST(DataLoaderAugment, ImagesAreCropsAndFlipsOfThePaddedOriginal) {
    const ImageDataset data = indexedDataset(64, 2, 8);
    LoaderOptions options;
    options.batch_size = 64;
    options.shuffle = false;
    options.augment = true;
    const Batch batch = epochOf(data, options, 3).at(0);
    std::set<std::tuple<int, int, bool>> seen;
    int identical = 0;
    for (int64_t i = 0; i < 64; ++i) {
        const auto padded = torch::constant_pad_nd(normalised(data, i), {4, 4, 4, 4}, -2.0);
        bool found = false;
        for (int dy = 0; dy <= 8 && !found; ++dy)
            for (int dx = 0; dx <= 8 && !found; ++dx)
                for (bool flip : {false, true}) {
                    auto crop = padded.slice(1, dy, dy + 8).slice(2, dx, dx + 8);
                    if (flip) crop = crop.flip({2});
                    if (torch::allclose(crop, batch.images[i], 0, 1e-6)) {
                        found = true;
                        seen.insert({dy, dx, flip});
                        break;
                    }
                }
        EXPECT_TRUE(found) << "image " << i << " is no crop/flip of its original";
        identical += torch::allclose(normalised(data, i), batch.images[i], 0, 1e-6);
    }
    EXPECT_GT(seen.size(), 20u); // the placements vary
    EXPECT_LT(identical, 10);
}

TEST(DataLoaderDeterminism, WorkerCountsGiveIdenticalBatches) {
    const ImageDataset data = indexedDataset(100, 3, 8);
    LoaderOptions options;
    options.batch_size = 7;
    options.augment = true;
    options.seed = 5;
    const auto reference = epochOf(data, options, 2);
    ASSERT_EQ(reference.size(), 14u);
    for (int workers : {2, 3}) {
        options.workers = workers;
        options.prefetch = 1;
        expectSameBatches(reference, epochOf(data, options, 2));
    }
}

TEST(DataLoaderDeterminism, ShufflePermutesAndEpochsDiffer) {
    const ImageDataset data = indexedDataset(50);
    LoaderOptions options;
    options.batch_size = 10;
    options.workers = 2;
    const auto epoch0 = labelsOf(epochOf(data, options, 0));
    const auto epoch1 = labelsOf(epochOf(data, options, 1));
    std::vector<int64_t> identity(50);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_NE(epoch0, identity);
    EXPECT_NE(epoch0, epoch1);
    EXPECT_EQ(std::set<int64_t>(epoch0.begin(), epoch0.end()).size(), 50u);
    EXPECT_EQ(labelsOf(epochOf(data, options, 0)), epoch0);
    options.seed = 1;
    EXPECT_NE(labelsOf(epochOf(data, options, 0)), epoch0);
    options.shuffle = false;
    EXPECT_EQ(labelsOf(epochOf(data, options, 4)), identity);
}

TEST(DataLoaderEpochs, StartEpochMidEpochRestarts) {
    const ImageDataset data = indexedDataset(60);
    LoaderOptions options;
    options.batch_size = 6;
    options.augment = true;
    for (int workers : {0, 2}) {
        options.workers = workers;
        const auto epoch0 = epochOf(data, options, 0);
        const auto epoch1 = epochOf(data, options, 1);
        DataLoader loader(data, options);
        ASSERT_TRUE(loader.next() && loader.next());
        loader.startEpoch(0);
        expectSameBatches(epoch0, wholeEpoch(loader));
        loader.startEpoch(1);
        ASSERT_TRUE(loader.next());
        loader.startEpoch(1);
        expectSameBatches(epoch1, wholeEpoch(loader));
    }
}

TEST(DataLoaderEpochs, SkipEqualsDroppingBatches) {
    const ImageDataset data = indexedDataset(60);
    LoaderOptions options;
    options.batch_size = 6;
    options.augment = true;
    for (int workers : {0, 2}) {
        options.workers = workers;
        auto expected = epochOf(data, options, 3);
        DataLoader loader(data, options);
        loader.startEpoch(3);
        loader.skip(3);
        expectSameBatches({expected.begin() + 3, expected.end()}, wholeEpoch(loader));

        loader.startEpoch(3);
        ASSERT_TRUE(loader.next());
        loader.skip(2); // mid-epoch, with batches already prefetched
        const auto rest = wholeEpoch(loader);
        expectSameBatches({expected.begin() + 3, expected.end()}, rest);

        loader.startEpoch(3);
        loader.skip(100);
        EXPECT_FALSE(loader.next().has_value());
    }
}

TEST(DataLoaderCancel, CancelWithBlockedWorkersReturnsPromptly) {
    const ImageDataset data = indexedDataset(400);
    LoaderOptions options;
    options.batch_size = 4;
    options.workers = 2;
    options.prefetch = 1;
    auto loader = std::make_unique<DataLoader>(data, options);
    ASSERT_TRUE(loader->next());
    std::this_thread::sleep_for(std::chrono::milliseconds(50)); // workers now wait for room
    const auto start = std::chrono::steady_clock::now();
    loader->cancel();
    EXPECT_FALSE(loader->next().has_value());
    loader->startEpoch(1);
    EXPECT_FALSE(loader->next().has_value());
    loader.reset();
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(DataLoaderCancel, CancelFromAnotherThreadWakesNext) {
    const ImageDataset data = indexedDataset(64, 3, 64);
    LoaderOptions options;
    options.batch_size = 32;
    options.workers = 1;
    options.augment = true;
    DataLoader loader(data, options);
    std::atomic<int64_t> batches{0};
    // Consume forever: restart the epoch whenever it ends, until cancelled.
    auto consumer = std::async(std::launch::async, [&] {
        for (int epoch = 0; epoch < 1000000; ++epoch) {
            loader.startEpoch(epoch);
            if (!loader.next()) return true;
            ++batches;
            while (loader.next())
                ++batches;
        }
        return false;
    });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (batches == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_GT(batches.load(), 0); // no ASSERT: the consumer must still be cancelled
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    loader.cancel();
    ASSERT_EQ(consumer.wait_for(std::chrono::seconds(5)), std::future_status::ready);
    EXPECT_TRUE(consumer.get());
}

Batch markerBatch(int64_t index) {
    Batch batch;
    batch.index = index;
    batch.labels = torch::full({1}, index, torch::kInt64);
    return batch;
}

TEST(DataLoaderPrefetcher, UnevenWorkersStillDeliverInOrder) {
    // Worker 0 is slow, so the others run ahead up to their prefetch limit.
    BatchPrefetcher prefetcher(
        [](int64_t index) {
            if (index % 3 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
            return markerBatch(index);
        },
        5, 40, 3, 2);
    for (int64_t index = 5; index < 40; ++index) {
        auto batch = prefetcher.take(index);
        ASSERT_TRUE(batch.has_value());
        EXPECT_EQ(batch->index, index);
        EXPECT_EQ(batch->labels[0].item<int64_t>(), index);
    }
}

TEST(DataLoaderPrefetcher, ProducerErrorSurfacesAtItsBatch) {
    BatchPrefetcher prefetcher(
        [](int64_t index) {
            if (index == 3) throw DataError("batch 3 failed");
            return markerBatch(index);
        },
        0, 10, 2, 2);
    for (int64_t index = 0; index < 3; ++index)
        EXPECT_TRUE(prefetcher.take(index).has_value());
    EXPECT_THROW(prefetcher.take(3), DataError);
    prefetcher.stop();
    EXPECT_FALSE(prefetcher.take(4).has_value());
}

TEST(DataLoaderOptions, InvalidOptionsAndPinMemoryWithoutCuda) {
    const ImageDataset data = indexedDataset(8);
    LoaderOptions options;
    options.batch_size = 0;
    EXPECT_THROW(DataLoader(data, options), DataError);
    options.batch_size = 2;
    options.workers = -1;
    EXPECT_THROW(DataLoader(data, options), DataError);
    options.workers = 0;
    DataLoader loader(data, options);
    EXPECT_THROW(loader.skip(-1), DataError);

    options.pin_memory = true;
    if (torch::cuda::is_available()) {
        DataLoader pinned(data, options);
        EXPECT_TRUE(pinned.next()->images.is_pinned());
        return;
    }
    try {
        DataLoader pinned(data, options);
        FAIL() << "pin_memory without CUDA must throw";
    } catch (const DataError& error) {
        EXPECT_NE(std::string(error.what()).find("pin_memory needs a CUDA device"),
                  std::string::npos);
    }
}

} // namespace
} // namespace ts
