#include "runners/PruneStudyRun.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <torch/torch.h>

#include "config/ConfigJson.h"
#include "config/ThreadChoice.h"
#include "data/DataLoader.h"
#include "datasets/Dataset.h"
#include "engine/Checkpoint.h"
#include "engine/Evaluate.h"
#include "engine/OptimizerFactory.h"
#include "engine/Pruning.h"
#include "env/TorchCompat.h"
#include "util/CpuAffinity.h"
#include "util/HostMemoryRetention.h"
#include "util/Statistics.h"

namespace ts {
namespace {

EvalResult evaluate(Model& model, const ImageDataset& data, const PruneStudyOptions& o,
                    const torch::Device& device) {
    LoaderOptions lo;
    lo.batch_size = o.config.batch_size;
    lo.shuffle = false;
    lo.drop_last = false;
    lo.channels_last = o.config.channels_last;
    lo.max_batches = o.eval_batches > 0 ? o.eval_batches : o.config.val_max_steps;
    DataLoader loader(data, lo);
    return evaluateModel(model, loader, 0, device, o.config.precision);
}

// Median wall time of one forward pass over a batch of the dataset's shape.
struct Latency {
    double median_ms = 0;
    double spread_ms = 0; // interquartile range of the timed passes
};

// Forward passes over a batch of the dataset's shape: median and spread.
Latency measureLatency(Model& model, const ImageDataset& data, const PruneStudyOptions& o,
                       const torch::Device& device) {
    torch::NoGradGuard no_grad;
    model.train(false);
    auto input = torch::randn({o.config.batch_size, data.channels, data.height, data.width},
                              torch::TensorOptions().device(device));
    if (o.config.channels_last) input = input.contiguous(torch::MemoryFormat::ChannelsLast);
    AutocastScope autocast(device, o.config.precision);
    std::vector<double> times;
    for (int i = 0; i < o.latency_warmup + o.latency_runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        model.forward(input);
        compat::synchronize(device);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        if (i >= o.latency_warmup) times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    const auto at = [&](double q) { return times[size_t(q * double(times.size() - 1) + 0.5)]; };
    return {median(times), at(0.75) - at(0.25)};
}

// Honest about what zeroed weights can do to dense kernels: a difference
// within the run-to-run spread (or 2%) is reported as none.
std::string speedVerdict(const PruneStudyResult& r, const std::string& device) {
    const double before = r.latency_before_ms, after = r.latency_after_ms;
    const double noise =
        std::max({r.latency_before_spread_ms, r.latency_after_spread_ms, 0.02 * before});
    const double change = before > 0 ? after / before - 1 : 0;
    char text[640];
    if (std::abs(after - before) <= noise)
        std::snprintf(text, sizeof(text),
                      "Sparsity did not make inference faster on %s: %.2f ms before, %.2f ms "
                      "after (%+.1f%%, within the run-to-run spread of %.2f ms). Zeroed weights "
                      "are still multiplied by the dense kernels; a speed-up needs sparse "
                      "kernels or the channels physically removed.",
                      device.c_str(), before, after, change * 100, noise);
    else
        std::snprintf(text, sizeof(text),
                      "Inference took %.2f ms before and %.2f ms after pruning on %s (%+.1f%%, "
                      "beyond the run-to-run spread of %.2f ms). Dense kernels do not skip "
                      "zeros, so this is not the sparsity at work: other load on the machine, "
                      "clock or cache effects; rerun before crediting the pruning.",
                      before, after, device.c_str(), change * 100, noise);
    return text;
}

void savePruned(Model& model, const ExperimentConfig& config, const std::filesystem::path& path) {
    auto optimizer = makeOptimizer(config, model.parameters()).optimizer;
    saveCheckpoint(path, model, *optimizer, nullptr, CheckpointPosition{},
                   configToJson(config).dump());
}

} // namespace

PruneStudyResult runPruneStudy(const PruneStudyOptions& o, const std::filesystem::path& out_dir) {
    checkPruneOptions(o.prune);
    if (o.latency_runs < 1) throw std::invalid_argument("--latency-runs must be at least 1");
    at::set_num_threads(
        chooseIntraOpThreads(o.config.threads, o.config.workers, usableCores()).threads);
    // Latency before and after pruning is measured under the same allocator policy as training.
    const HostMemoryRetention retention(o.config.retain_host_memory);
    const auto data = loadDataset(o.config, Split::Test);
    auto model = createModel(o.config, data.channels);
    const auto weights = isTrainscopeCheckpoint(o.weights) ? readCheckpointWeights(o.weights)
                                                           : readStateDict(o.weights);
    PruneStudyResult r;
    r.prune = o.prune;
    r.model = o.config.model;
    r.device = o.config.device;
    r.weights = o.weights;
    r.weights_report = loadPretrained(*model, weights, o.weights);
    const torch::Device device(o.config.device);
    model->to(device, o.config.channels_last);
    r.latency_batch = o.config.batch_size;
    r.latency_runs = o.latency_runs;
    r.before = evaluate(*model, data, o, device);
    const auto before = measureLatency(*model, data, o, device);
    r.latency_before_ms = before.median_ms;
    r.latency_before_spread_ms = before.spread_ms;
    r.layers = pruneModel(*model, o.prune);
    r.after = evaluate(*model, data, o, device);
    const auto after = measureLatency(*model, data, o, device);
    r.latency_after_ms = after.median_ms;
    r.latency_after_spread_ms = after.spread_ms;
    r.verdict = speedVerdict(r, o.config.device);
    std::filesystem::create_directories(out_dir);
    r.pruned_weights = out_dir / prune_files::kWeights;
    savePruned(*model, o.config, r.pruned_weights);
    return r;
}

} // namespace ts
