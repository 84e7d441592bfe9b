#pragma once
// A constructed prune study (no model, no training): the input of the prune
// report tests and goldens.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "experiments/PruneStudy.h"

namespace ts::test {

// A layer of `shape` with 2 zeros before pruning and `zeros_after` after; all
// its channels zeroed when every weight is, else one.
inline LayerSparsity prunedLayer(const std::string& name, std::vector<int64_t> shape,
                                 int64_t zeros_after) {
    LayerSparsity l;
    l.name = name;
    l.shape = std::move(shape);
    l.params = 1;
    for (int64_t d : l.shape)
        l.params *= d;
    l.zeros_before = 2;
    l.zeros_after = zeros_after;
    l.channels = l.shape.front();
    l.channels_zeroed = zeros_after == l.params ? l.channels : 1;
    return l;
}

// Structured L2 pruning of half the channels of a ResNet-18, fc included.
inline PruneStudyResult constructedPruneStudy() {
    PruneStudyResult r;
    r.prune.amount = 0.5;
    r.prune.structured = true;
    r.prune.norm = 2;
    r.prune.include_linear = true;
    r.model = "resnet18";
    r.device = "cpu";
    r.weights = "runs/train/final.pt";
    r.weights_report = "loaded 62 tensors";
    r.layers = {prunedLayer("conv1.weight", {64, 3, 7, 7}, 4704),
                prunedLayer("layer1.0.conv1.weight", {64, 64, 3, 3}, 18432),
                prunedLayer("fc.weight", {10, 512}, 2560)};
    r.before.accuracy = 0.625;
    r.after.accuracy = 0.5;
    r.before.loss = 1.1;
    r.after.loss = 1.4;
    r.before.samples = r.after.samples = 64;
    r.latency_batch = 16;
    r.latency_runs = 5;
    r.latency_before_ms = 12.5;
    r.latency_after_ms = 12.75;
    r.latency_before_spread_ms = 0.5;
    r.latency_after_spread_ms = 0.25;
    r.pruned_weights = "runs/pruned/pruned.pt";
    r.verdict = "Sparsity did not make inference faster on cpu.";
    return r;
}

} // namespace ts::test
