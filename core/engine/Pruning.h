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

#include "analysis/PruneTypes.h"
#include "models/Model.h"

namespace ts {

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
