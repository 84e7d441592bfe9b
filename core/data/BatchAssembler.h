#pragma once
// Builds one loader batch: gathers the epoch's samples, applies the optional
// random crop / flip and normalises uint8 pixels through a per-channel lookup
// table straight into a preallocated float tensor. Stateless after
// construction, so any number of threads may call make() at once.
#include <cstdint>
#include <vector>

#include "data/DataLoader.h"

namespace ts {

class BatchAssembler {
public:
    // Throws DataError when the dataset's statistics or sizes are inconsistent.
    BatchAssembler(const ImageDataset& dataset, const LoaderOptions& options);

    // Batches in a whole epoch (of this loader's shard), before options.max_batches.
    int64_t fullEpochBatches() const;
    // Batch `index` of `epoch` when the epoch visits the samples in `order`.
    Batch make(const std::vector<int64_t>& order, int epoch, int64_t index) const;

private:
    // Where a sample lands after augmentation: shifted by (dx, dy), then mirrored.
    struct Placement {
        int dx = 0, dy = 0;
        bool flip = false;
    };
    Placement placement(int64_t sample, int epoch) const;
    void writeImage(int64_t sample, int epoch, float* dst) const;

    const ImageDataset& data_;
    LoaderOptions options_;
    std::vector<float> table_; // [channel * 256 + value] -> normalised value
    // Element strides of channel, row and column inside one output image:
    // CHW for the default layout, HWC for channels_last.
    int64_t channel_stride_ = 0, row_stride_ = 0, col_stride_ = 0;
};

} // namespace ts
