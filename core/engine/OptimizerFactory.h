#pragma once
#include <memory>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "config/ExperimentConfig.h"

namespace ts {

struct MadeOptimizer {
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    // What runs the update and, without the fused kernel, why: run.json keeps
    // it ("fused SGD (at::_fused_sgd_)", "torch::optim::AdamW (fused_optimizer is off)").
    std::string implementation;
};

// sgd (momentum, weight decay), adam, adamw from the config, fused where the
// LibTorch has the kernel and `fused_optimizer` is on (FusedSgd.h, FusedAdam.h).
MadeOptimizer makeOptimizer(const ExperimentConfig& config, std::vector<torch::Tensor> parameters);
void setLearningRate(torch::optim::Optimizer& optimizer, double lr);

} // namespace ts
