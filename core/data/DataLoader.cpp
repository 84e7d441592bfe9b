#include "data/DataLoader.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>

#include <torch/cuda.h>

#include "data/BatchAssembler.h"
#include "data/BatchPrefetcher.h"
#include "datasets/SeededRandom.h"

namespace ts {

namespace {

void checkThreading(const LoaderOptions& options) {
    if (options.workers < 0)
        throw DataError("Loader workers must be 0 or more, got " + std::to_string(options.workers) +
                        ".");
    if (options.prefetch < 1)
        throw DataError("Loader prefetch must be at least 1 batch per worker, got " +
                        std::to_string(options.prefetch) + ".");
    if (options.shard_count < 1 || options.shard_rank < 0 ||
        options.shard_rank >= options.shard_count)
        throw DataError("Loader shard " + std::to_string(options.shard_rank) + " of " +
                        std::to_string(options.shard_count) + " does not exist.");
    if (options.pin_memory && !torch::cuda::is_available())
        throw DataError("pin_memory needs a CUDA device, but LibTorch reports none available; "
                        "set pin_memory to false.");
}

} // namespace

// next(), startEpoch() and skip() belong to one consumer thread; cancel() may
// come from any thread, so the prefetcher pointer it reads is guarded.
struct DataLoader::Impl {
    Impl(const ImageDataset& dataset, LoaderOptions loader_options)
        : data(dataset), options(loader_options), assembler(data, options) {
        checkThreading(options);
        const int64_t full = assembler.fullEpochBatches();
        per_epoch = options.max_batches > 0 ? std::min(full, options.max_batches) : full;
    }

    void dropPrefetcher() {
        std::unique_ptr<BatchPrefetcher> old;
        {
            std::lock_guard<std::mutex> lock(prefetcher_mutex);
            old = std::move(prefetcher);
        }
        old.reset(); // joins outside the lock, so cancel() never waits on a join
    }

    // False when cancelled: no workers are started after cancel().
    bool ensurePrefetcher() {
        std::lock_guard<std::mutex> lock(prefetcher_mutex);
        if (cancelled) return false;
        if (!prefetcher) {
            auto produce = [this](int64_t index) { return assembler.make(order, epoch, index); };
            prefetcher = std::make_unique<BatchPrefetcher>(produce, position, per_epoch,
                                                           options.workers, options.prefetch);
        }
        return true;
    }

    const ImageDataset& data;
    LoaderOptions options;
    BatchAssembler assembler;
    int64_t per_epoch = 0;

    int epoch = 0;
    std::vector<int64_t> order;
    int64_t position = 0; // next batch index of the epoch

    std::atomic<bool> cancelled{false};
    std::mutex prefetcher_mutex;
    std::unique_ptr<BatchPrefetcher> prefetcher;
};

DataLoader::DataLoader(const ImageDataset& dataset, LoaderOptions options)
    : impl_(std::make_unique<Impl>(dataset, options)) {
    startEpoch(0);
}

DataLoader::~DataLoader() {
    cancel();
    impl_->dropPrefetcher();
}

int64_t DataLoader::batchesPerEpoch() const {
    return impl_->per_epoch;
}

void DataLoader::startEpoch(int epoch) {
    impl_->dropPrefetcher();
    impl_->epoch = epoch;
    const LoaderOptions& o = impl_->options;
    // Every rank draws the same permutation (same seed and epoch) and keeps its
    // part of it, so the parts are disjoint and reshuffled each epoch.
    impl_->order = shardOrder(epochOrder(impl_->data.size(), o.shuffle, o.seed, epoch),
                              o.shard_rank, o.shard_count, o.shard_pad);
    impl_->position = 0;
}

std::optional<Batch> DataLoader::next() {
    Impl& im = *impl_;
    if (im.cancelled || im.position >= im.per_epoch) return std::nullopt;
    if (im.options.workers == 0) return im.assembler.make(im.order, im.epoch, im.position++);
    if (!im.ensurePrefetcher()) return std::nullopt;
    // Only this thread replaces the prefetcher, so it is safe to use unlocked.
    std::optional<Batch> batch = im.prefetcher->take(im.position);
    if (batch) ++im.position;
    return batch;
}

void DataLoader::skip(int64_t n) {
    if (n < 0)
        throw DataError("DataLoader::skip needs a non-negative batch count, got " +
                        std::to_string(n) + ".");
    if (n == 0) return;
    // Queued batches belong to the old position; restart the workers after it.
    impl_->dropPrefetcher();
    impl_->position = std::min(impl_->per_epoch, impl_->position + n);
}

void DataLoader::cancel() {
    impl_->cancelled = true;
    std::lock_guard<std::mutex> lock(impl_->prefetcher_mutex);
    if (impl_->prefetcher) impl_->prefetcher->stop();
}

} // namespace ts
