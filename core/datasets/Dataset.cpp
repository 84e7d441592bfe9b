// Dataset selection from an ExperimentConfig.
#include "datasets/Dataset.h"

#include <algorithm>

#include "datasets/SeededRandom.h"

namespace ts {

namespace {

const char* const kKnownDatasets = "fashion-mnist, cifar10, cifar100 or synthetic";

ImageDataset loadSynthetic(const ExperimentConfig& config, Split split) {
    const int64_t samples = split == Split::Train
                                ? config.synthetic_samples
                                : std::max<int64_t>(config.synthetic_samples / 4, 1);
    // Both splits share the class prototypes (config.seed) but draw their
    // samples from different streams, so the test split is unseen data.
    const uint64_t sample_seed =
        mixSeeds(config.seed, split == Split::Train ? 0x7261696eu : 0x74657374u);
    return makeSynthetic(samples, config.synthetic_channels, config.image_size, config.num_classes,
                         config.seed, sample_seed);
}

} // namespace

std::filesystem::path defaultDataDir(const std::string& dataset) {
    if (dataset == "fashion-mnist") return "/usr/share/datasets/fashion-mnist";
    if (dataset == "cifar10") return std::filesystem::path("data") / "cifar-10-batches-bin";
    if (dataset == "cifar100") return std::filesystem::path("data") / "cifar-100-binary";
    if (dataset == "synthetic") return {};
    throw DataError("Unknown dataset '" + dataset + "'; expected " + kKnownDatasets + ".");
}

ImageDataset loadDataset(const ExperimentConfig& config, Split split) {
    const std::string& name = config.dataset;
    if (name != "fashion-mnist" && name != "cifar10" && name != "cifar100" && name != "synthetic")
        throw DataError("Unknown dataset '" + name + "' in key 'dataset'; expected " +
                        kKnownDatasets + ".");
    if (name == "synthetic") return loadSynthetic(config, split);
    const std::filesystem::path dir =
        config.data_dir.empty() ? defaultDataDir(name) : std::filesystem::path(config.data_dir);
    if (name == "fashion-mnist") return readFashionMnist(dir, split);
    if (name == "cifar10") return readCifar10(dir, split);
    return readCifar100(dir, split);
}

} // namespace ts
