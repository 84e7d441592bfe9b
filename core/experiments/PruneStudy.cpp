#include "experiments/PruneStudy.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "config/ConfigJson.h"
#include "config/ThreadChoice.h"
#include "data/DataLoader.h"
#include "data/Dataset.h"
#include "engine/Checkpoint.h"
#include "engine/Evaluate.h"
#include "engine/OptimizerFactory.h"
#include "engine/Pruning.h"
#include "env/TorchCompat.h"
#include "report/ChartRenderer.h"
#include "report/MarkdownTable.h"
#include "util/AtomicFile.h"
#include "util/CpuAffinity.h"
#include "util/Csv.h"
#include "util/HostMemoryRetention.h"
#include "util/Statistics.h"

namespace ts {
namespace {

void sync(const torch::Device& d) {
    if (d.is_cuda()) compat::cudaSynchronize(d.index() < 0 ? 0 : d.index());
}

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
        sync(device);
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
    auto optimizer = makeOptimizer(config, model.parameters());
    saveCheckpoint(path, model, *optimizer, nullptr, CheckpointPosition{},
                   configToJson(config).dump());
}

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string out;
    for (auto d : shape)
        out += (out.empty() ? "" : "x") + std::to_string(d);
    return out;
}

std::string methodText(const PruneOptions& p) {
    std::ostringstream out;
    out << (p.structured ? "structured (L" + std::to_string(p.norm) + " norm of output channels)"
                         : std::string("L1 unstructured"))
        << ", " << (p.global ? "global" : "per layer") << ", amount " << p.amount << ", "
        << (p.include_linear ? "conv + linear weights" : "conv weights");
    return out.str();
}

} // namespace

int64_t PruneStudyResult::params() const {
    int64_t n = 0;
    for (const auto& l : layers)
        n += l.params;
    return n;
}

int64_t PruneStudyResult::zerosBefore() const {
    int64_t n = 0;
    for (const auto& l : layers)
        n += l.zeros_before;
    return n;
}

int64_t PruneStudyResult::zerosAfter() const {
    int64_t n = 0;
    for (const auto& l : layers)
        n += l.zeros_after;
    return n;
}

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

std::string pruneText(const PruneStudyResult& r) {
    std::ostringstream out;
    out << "pruning: " << methodText(r.prune) << "\n" << r.weights_report << "\n";
    TableRows rows;
    for (const auto& l : r.layers)
        rows.push_back({l.name, shapeText(l.shape), std::to_string(l.params),
                        percent(l.sparsityBefore()), percent(l.sparsityAfter()),
                        std::to_string(l.channels_zeroed) + "/" + std::to_string(l.channels)});
    rows.push_back({"total", "", std::to_string(r.params()),
                    percent(r.params() ? double(r.zerosBefore()) / double(r.params()) : 0),
                    percent(r.params() ? double(r.zerosAfter()) / double(r.params()) : 0), ""});
    out << plainTable(
        {"layer", "shape", "weights", "sparsity before", "sparsity after", "zero channels"}, rows);
    out << "accuracy: " << percent(r.before.accuracy, 2) << " before, "
        << percent(r.after.accuracy, 2) << " after (" << r.after.samples << " test images)\n"
        << "latency (batch " << r.latency_batch << ", median of " << r.latency_runs
        << " forward passes): " << fixed(r.latency_before_ms, 2) << " ms before, "
        << fixed(r.latency_after_ms, 2) << " ms after\n"
        << r.verdict << "\n"
        << "pruned weights: " << r.pruned_weights.string() << "\n";
    return out.str();
}

chart::BarChart pruneSparsityChart(const PruneStudyResult& r) {
    chart::BarChart c;
    c.title = (r.model.empty() ? "" : r.model + ": ") + "sparsity per layer";
    c.y_label = "zero weights (%)";
    c.value_labels = false; // dozens of layers: the axis says enough
    chart::BarSeries before{"before pruning", {}, chart::kNeutralColor, {}, {}};
    chart::BarSeries after{"after pruning", {}, chart::paletteColor(4), {}, {}};
    for (const auto& l : r.layers) {
        std::string name = l.name;
        if (name.size() > 7 && name.compare(name.size() - 7, 7, ".weight") == 0)
            name.resize(name.size() - 7);
        c.categories.push_back(name);
        before.values.push_back(100 * l.sparsityBefore());
        after.values.push_back(100 * l.sparsityAfter());
    }
    // Weights that were dense before: no grey bars, the coloured ones alone.
    if (r.zerosBefore() > 0) c.series.push_back(before);
    c.series.push_back(after);
    if (r.params() > 0) {
        const double overall = 100.0 * double(r.zerosAfter()) / double(r.params());
        c.lines.push_back({"overall after pruning: " + fixed(overall, 1) + " %", overall,
                           chart::paletteColor(0)});
    }
    return c;
}

void writePruneReport(const PruneStudyResult& r, const std::filesystem::path& dir) {
    std::ostringstream csv;
    csv << "layer,shape,params,zeros_before,zeros_after,sparsity_before,sparsity_after,channels,"
           "channels_zeroed\n";
    for (const auto& l : r.layers)
        csv << csvField(l.name) << ',' << shapeText(l.shape) << ',' << l.params << ','
            << l.zeros_before << ',' << l.zeros_after << ',' << l.sparsityBefore() << ','
            << l.sparsityAfter() << ',' << l.channels << ',' << l.channels_zeroed << '\n';
    writeFileAtomically(dir / prune_files::kLayersCsv, csv.str());
    nlohmann::json j = {{"method", methodText(r.prune)},
                        {"amount", r.prune.amount},
                        {"structured", r.prune.structured},
                        {"global", r.prune.global},
                        {"norm", r.prune.norm},
                        {"include_linear", r.prune.include_linear},
                        {"model", r.model},
                        {"device", r.device},
                        {"weights", r.weights},
                        {"pruned_weights", r.pruned_weights.string()},
                        {"params", r.params()},
                        {"zeros_before", r.zerosBefore()},
                        {"zeros_after", r.zerosAfter()},
                        {"accuracy_before", r.before.accuracy},
                        {"accuracy_after", r.after.accuracy},
                        {"loss_before", r.before.loss},
                        {"loss_after", r.after.loss},
                        {"eval_samples", r.after.samples},
                        {"latency_batch", r.latency_batch},
                        {"latency_runs", r.latency_runs},
                        {"latency_before_ms", r.latency_before_ms},
                        {"latency_after_ms", r.latency_after_ms},
                        {"latency_before_spread_ms", r.latency_before_spread_ms},
                        {"latency_after_spread_ms", r.latency_after_spread_ms},
                        {"verdict", r.verdict}};
    writeFileAtomically(dir / prune_files::kJson, j.dump(2) + "\n");
    std::ostringstream md;
    md << "# Pruning " << r.model << "\n\n"
       << "Method: " << methodText(r.prune) << ". Weights: `" << r.weights << "` ("
       << r.weights_report << ").\n\n"
       << markdownTable({"", "before", "after"},
                        {{"sparsity of pruned layers",
                          percent(r.params() ? double(r.zerosBefore()) / r.params() : 0),
                          percent(r.params() ? double(r.zerosAfter()) / r.params() : 0)},
                         {"accuracy (" + std::to_string(r.after.samples) + " test images)",
                          percent(r.before.accuracy, 2), percent(r.after.accuracy, 2)},
                         {"latency, batch " + std::to_string(r.latency_batch) + " (ms)",
                          fixed(r.latency_before_ms, 2), fixed(r.latency_after_ms, 2)}},
                        {"before", "after"})
       << "\n"
       << r.verdict << "\n\nPer-layer sparsity: `" << prune_files::kLayersCsv
       << "`. Pruned weights: `" << prune_files::kWeights
       << "` (load with `--set pretrained=...` or `evaluate --weights`).\n\n"
       << chartMarkdown("sparsity per layer", prune_files::kSparsityPng) << "\n";
    writeFileAtomically(dir / prune_files::kMarkdown, md.str());
    writeChart(pruneSparsityChart(r), dir / prune_files::kSparsityPng);
}

} // namespace ts
