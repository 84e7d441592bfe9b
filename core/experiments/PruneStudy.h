#pragma once
// A pruning study's options and result, its text, chart and report files.
// The study itself (runners/PruneStudyRun.h) prunes trained weights and
// measures what it did: per-layer sparsity, accuracy before and after, and
// inference latency before and after. No LibTorch here: the GUI reads and
// shows studies without it.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/PruneTypes.h"
#include "config/ExperimentConfig.h"
#include "records/EvalResult.h"
#include "report/ChartSpec.h"

namespace ts {

struct PruneStudyOptions {
    ExperimentConfig config; // model, dataset (test split), device, precision, batch size
    std::string weights;     // Trainscope checkpoint or state_dict file
    PruneOptions prune;
    int latency_runs = 20; // timed forward passes (median reported)
    int latency_warmup = 3;
    int64_t eval_batches = 0; // test batches evaluated; 0 = config.val_max_steps (0 = all)
};

struct PruneStudyResult {
    PruneOptions prune;
    std::string model, device, weights, weights_report;
    std::vector<LayerSparsity> layers;
    EvalResult before, after;
    int latency_batch = 0;
    int latency_runs = 0;
    double latency_before_ms = 0, latency_after_ms = 0;               // medians
    double latency_before_spread_ms = 0, latency_after_spread_ms = 0; // interquartile ranges
    std::filesystem::path pruned_weights;
    std::string verdict; // what the sparsity did to speed, in plain words

    int64_t params() const;
    int64_t zerosBefore() const;
    int64_t zerosAfter() const;
};

std::string pruneText(const PruneStudyResult& result);
// Sparsity per layer before (grey, only when some weights were zero before)
// and after pruning, the overall sparsity after as a dashed line. The GUI
// draws the same chart.
chart::BarChart pruneSparsityChart(const PruneStudyResult& result);
// prune.md, prune_layers.csv, prune.json and (where a chart renderer is
// installed) prune_sparsity.png in `dir`.
void writePruneReport(const PruneStudyResult& result, const std::filesystem::path& dir);

namespace prune_files {
inline constexpr const char* kWeights = "pruned.pt";
inline constexpr const char* kMarkdown = "prune.md";
inline constexpr const char* kLayersCsv = "prune_layers.csv";
inline constexpr const char* kJson = "prune.json";
inline constexpr const char* kSparsityPng = "prune_sparsity.png";
} // namespace prune_files

} // namespace ts
