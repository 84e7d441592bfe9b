#pragma once
// Magnitude pruning of a model's weights, in place, as torch.nn.utils.prune
// does it: L1 unstructured (per layer or one global threshold over all the
// chosen layers) and structured channel pruning (whole output channels with
// the smallest L1/L2 norm). Pruned weights are zeroed, not removed, so the
// tensors keep their shapes and dense kernels do the same work as before.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "models/Model.h"

namespace ts {

struct PruneOptions {
    double amount = 0.3;         // share of weights (or channels) to zero, 0..1
    bool structured = false;     // whole output channels instead of single weights
    bool global = false;         // one threshold over all layers (unstructured only)
    int norm = 1;                // structured: 1 = L1, 2 = L2 norm of each channel
    bool include_linear = false; // also the fully connected layers (2-D weights)
};

struct LayerSparsity {
    std::string name; // "layer1.0.conv1.weight"
    std::vector<int64_t> shape;
    int64_t params = 0;
    int64_t zeros_before = 0;
    int64_t zeros_after = 0;
    int64_t channels = 0;        // output channels
    int64_t channels_zeroed = 0; // output channels that are entirely zero after pruning

    double sparsityBefore() const { return params ? double(zeros_before) / double(params) : 0; }
    double sparsityAfter() const { return params ? double(zeros_after) / double(params) : 0; }
};

// Throws std::invalid_argument naming the option when the options are invalid.
void checkPruneOptions(const PruneOptions& options);

// Convolution weights (4-D), plus 2-D linear weights when asked, by name.
std::vector<std::pair<std::string, torch::Tensor>> pruneTargets(Model& model, bool include_linear);

// 1 = keep, 0 = prune. Exactly round(amount * numel) entries are pruned,
// the smallest |w| first (ties broken by position).
torch::Tensor l1UnstructuredMask(const torch::Tensor& weight, double amount);
// Same over all tensors together; one mask per tensor.
std::vector<torch::Tensor> globalL1Masks(const std::vector<torch::Tensor>& weights, double amount);
// Mask of weight's shape with round(amount * out_channels) whole output
// channels (dim 0) pruned: those with the smallest L`norm` norm.
torch::Tensor channelMask(const torch::Tensor& weight, double amount, int norm);

int64_t countZeros(const torch::Tensor& tensor);
// Output channels whose weights are all zero.
int64_t countZeroChannels(const torch::Tensor& weight);

// Prunes the model's targets in place (under NoGradGuard) and reports each layer.
std::vector<LayerSparsity> pruneModel(Model& model, const PruneOptions& options);

} // namespace ts
