// Loader throughput on a full Fashion-MNIST training epoch (60000 images,
// batch 128, augmentation on), for 0 and 2 worker threads. Prints the median
// images/s of a few epochs so the figure can be compared with training speed.
//   bench_loader [data_dir] [epochs]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "data/DataLoader.h"
#include "datasets/Dataset.h"

namespace {

double seconds(std::chrono::steady_clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Images per second of each epoch.
std::vector<double> timeEpochs(const ts::ImageDataset& data, int workers, int epochs) {
    ts::LoaderOptions options;
    options.batch_size = 128;
    options.augment = true;
    options.workers = workers;
    options.seed = 1;
    ts::DataLoader loader(data, options);
    std::vector<double> rates;
    for (int epoch = 0; epoch < epochs; ++epoch) {
        const auto start = std::chrono::steady_clock::now();
        loader.startEpoch(epoch);
        int64_t images = 0;
        while (auto batch = loader.next())
            images += batch->images.size(0);
        rates.push_back(double(images) / seconds(std::chrono::steady_clock::now() - start));
    }
    return rates;
}

} // namespace

int main(int argc, char** argv) {
    try {
        const auto dir =
            argc > 1 ? std::filesystem::path(argv[1]) : ts::defaultDataDir("fashion-mnist");
        const int epochs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
        const auto load_start = std::chrono::steady_clock::now();
        const ts::ImageDataset data = ts::readFashionMnist(dir, ts::Split::Train);
        std::printf("read %lld Fashion-MNIST images in %.2f s\n", (long long)data.size(),
                    seconds(std::chrono::steady_clock::now() - load_start));
        for (int workers : {0, 2}) {
            const auto rates = timeEpochs(data, workers, epochs);
            std::printf("workers=%d batch=128 augment=on: median %.0f images/s (%.3f s/epoch, "
                        "%d epochs)\n",
                        workers, median(rates), double(data.size()) / median(rates), epochs);
        }
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "bench_loader: %s\n", error.what());
        return 1;
    }
}
