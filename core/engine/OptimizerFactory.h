#pragma once
#include <memory>
#include <vector>

#include <torch/torch.h>

#include "config/ExperimentConfig.h"

namespace ts {

// sgd (momentum, weight decay), adam, adamw from the config.
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const ExperimentConfig& config,
                                                       std::vector<torch::Tensor> parameters);
void setLearningRate(torch::optim::Optimizer& optimizer, double lr);

} // namespace ts
