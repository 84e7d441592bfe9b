#pragma once
// Batches from an ImageDataset: shuffling, augmentation (random crop with
// 4-pixel padding, horizontal flip), normalisation, optional background
// worker threads with prefetching, optional pinned memory.
// Augmentation randomness depends only on (seed, epoch, sample index), so the
// number of workers never changes the data and a resumed run sees exactly the
// batches an uninterrupted one would.
#include <cstdint>
#include <memory>
#include <optional>

#include <torch/types.h>

#include "datasets/Dataset.h"

namespace ts {

struct LoaderOptions {
    int batch_size = 64;
    bool shuffle = true;
    bool augment = false;
    bool drop_last = true;
    int workers = 0;         // 0 = batches are made on the calling thread
    int prefetch = 2;        // batches in flight per worker
    bool pin_memory = false; // only valid when CUDA is available
    bool channels_last = false;
    uint64_t seed = 0;
    int64_t max_batches = 0; // 0 = whole epoch
    // Data-parallel: this loader serves part `shard_rank` of `shard_count`
    // (SeededRandom.h's shardOrder), padded to equal parts when shard_pad.
    int shard_rank = 0;
    int shard_count = 1;
    bool shard_pad = true;
};

struct Batch {
    torch::Tensor images; // float32 [N, C, H, W], normalised
    torch::Tensor labels; // int64 [N]
    int64_t index = 0;    // batch index within the epoch
};

class DataLoader {
public:
    DataLoader(const ImageDataset& dataset, LoaderOptions options);
    ~DataLoader(); // stops and joins the workers
    DataLoader(const DataLoader&) = delete;
    DataLoader& operator=(const DataLoader&) = delete;

    int64_t batchesPerEpoch() const;
    // Starts producing the batches of `epoch`; the previous epoch is abandoned.
    void startEpoch(int epoch);
    // Next batch of the current epoch, nullopt at its end or after cancel().
    std::optional<Batch> next();
    // Skips the first n batches of the current epoch cheaply (resume mid-epoch).
    void skip(int64_t n);
    // Wakes any waiting next() and stops the workers; thread-safe. Final: every
    // later next() returns nullopt, also after startEpoch().
    void cancel();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ts
