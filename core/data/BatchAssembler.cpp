#include "data/BatchAssembler.h"

#include <algorithm>
#include <string>

#include "datasets/SeededRandom.h"

namespace ts {

namespace {

constexpr int kCropPad = 4; // random crop from the image zero-padded by 4 pixels

void checkDataset(const ImageDataset& data) {
    const std::string where = "Dataset '" + data.name + "'";
    if (data.channels < 1 || data.height < 1 || data.width < 1)
        throw DataError(where + " has an empty image shape.");
    if (int64_t(data.pixels.size()) != data.size() * data.imageBytes())
        throw DataError(where + " holds " + std::to_string(data.pixels.size()) +
                        " pixel bytes, expected " +
                        std::to_string(data.size() * data.imageBytes()) + " for its " +
                        std::to_string(data.size()) + " images.");
    if (int(data.mean.size()) != data.channels || int(data.std.size()) != data.channels)
        throw DataError(where + " needs one mean and one std per channel (" +
                        std::to_string(data.channels) + "), got " +
                        std::to_string(data.mean.size()) + " and " +
                        std::to_string(data.std.size()) + ".");
    for (float s : data.std)
        if (!(s > 0)) throw DataError(where + " has a non-positive std " + std::to_string(s) + ".");
}

void checkOptions(const LoaderOptions& options) {
    if (options.batch_size < 1)
        throw DataError("Loader batch_size must be at least 1, got " +
                        std::to_string(options.batch_size) + ".");
    if (options.max_batches < 0)
        throw DataError("Loader max_batches must be 0 (whole epoch) or positive, got " +
                        std::to_string(options.max_batches) + ".");
}

} // namespace

BatchAssembler::BatchAssembler(const ImageDataset& dataset, const LoaderOptions& options)
    : data_(dataset), options_(options) {
    checkDataset(data_);
    checkOptions(options_);
    table_.resize(size_t(data_.channels) * 256);
    for (int c = 0; c < data_.channels; ++c)
        for (int v = 0; v < 256; ++v)
            table_[size_t(c) * 256 + v] = (float(v) / 255.0f - data_.mean[c]) / data_.std[c];
    if (options_.channels_last) {
        channel_stride_ = 1;
        col_stride_ = data_.channels;
        row_stride_ = int64_t(data_.width) * data_.channels;
    } else {
        channel_stride_ = int64_t(data_.height) * data_.width;
        row_stride_ = data_.width;
        col_stride_ = 1;
    }
}

int64_t BatchAssembler::fullEpochBatches() const {
    const int64_t size =
        shardSize(data_.size(), options_.shard_rank, options_.shard_count, options_.shard_pad);
    const int64_t batch = options_.batch_size;
    return options_.drop_last ? size / batch : (size + batch - 1) / batch;
}

BatchAssembler::Placement BatchAssembler::placement(int64_t sample, int epoch) const {
    if (!options_.augment) return {};
    const uint64_t bits =
        splitmix64(mixSeeds(mixSeeds(options_.seed, uint64_t(int64_t(epoch))), uint64_t(sample)));
    constexpr uint64_t span = 2 * kCropPad + 1;
    return {int(bits % span) - kCropPad, int((bits >> 16) % span) - kCropPad,
            ((bits >> 32) & 1) != 0};
}

// out(y, x) = src(y + dy, x' + dx) with x' = W-1-x when flipped, else x; source
// pixels outside the image are the zero padding (normalised like a 0 pixel).
void BatchAssembler::writeImage(int64_t sample, int epoch, float* dst) const {
    const int height = data_.height, width = data_.width;
    const Placement at = placement(sample, epoch);
    // Output columns whose source column lies inside the image.
    const int x_begin = std::min(width, at.flip ? std::max(0, at.dx) : std::max(0, -at.dx));
    const int x_end = std::max(x_begin, at.flip ? std::min(width, width + at.dx)
                                                : std::min(width, width - at.dx));
    for (int c = 0; c < data_.channels; ++c) {
        const float* table = table_.data() + size_t(c) * 256;
        const uint8_t* plane = data_.image(sample) + int64_t(c) * height * width;
        const float pad = table[0];
        for (int y = 0; y < height; ++y) {
            float* out = dst + c * channel_stride_ + y * row_stride_;
            const int sy = y + at.dy;
            if (sy < 0 || sy >= height) {
                for (int x = 0; x < width; ++x)
                    out[x * col_stride_] = pad;
                continue;
            }
            const uint8_t* src = plane + int64_t(sy) * width;
            for (int x = 0; x < x_begin; ++x)
                out[x * col_stride_] = pad;
            if (at.flip) {
                for (int x = x_begin; x < x_end; ++x)
                    out[x * col_stride_] = table[src[width - 1 - x + at.dx]];
            } else {
                for (int x = x_begin; x < x_end; ++x)
                    out[x * col_stride_] = table[src[x + at.dx]];
            }
            for (int x = x_end; x < width; ++x)
                out[x * col_stride_] = pad;
        }
    }
}

Batch BatchAssembler::make(const std::vector<int64_t>& order, int epoch, int64_t index) const {
    const int64_t first = index * options_.batch_size;
    const int64_t count = std::min<int64_t>(options_.batch_size, int64_t(order.size()) - first);
    const auto format =
        options_.channels_last ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::Contiguous;
    Batch batch;
    batch.index = index;
    batch.images =
        torch::empty({count, data_.channels, data_.height, data_.width},
                     torch::TensorOptions().dtype(torch::kFloat32).memory_format(format));
    batch.labels = torch::empty({count}, torch::TensorOptions().dtype(torch::kInt64));
    float* images = batch.images.data_ptr<float>();
    int64_t* labels = batch.labels.data_ptr<int64_t>();
    for (int64_t i = 0; i < count; ++i) {
        const int64_t sample = order[size_t(first + i)];
        writeImage(sample, epoch, images + i * data_.imageBytes());
        labels[i] = data_.labels[size_t(sample)];
    }
    if (options_.pin_memory) {
        batch.images = batch.images.pin_memory();
        batch.labels = batch.labels.pin_memory();
    }
    return batch;
}

} // namespace ts
