#include "engine/OptimizerFactory.h"

#include "config/ConfigError.h"

namespace ts {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const ExperimentConfig& c,
                                                       std::vector<torch::Tensor> parameters) {
    using namespace torch::optim;
    if (c.optimizer == "sgd")
        return std::make_unique<SGD>(
            parameters, SGDOptions(c.lr).momentum(c.momentum).weight_decay(c.weight_decay));
    if (c.optimizer == "adam")
        return std::make_unique<Adam>(parameters, AdamOptions(c.lr).weight_decay(c.weight_decay));
    if (c.optimizer == "adamw")
        return std::make_unique<AdamW>(parameters, AdamWOptions(c.lr).weight_decay(c.weight_decay));
    throw ConfigError("optimizer \"" + c.optimizer + "\" is not one of sgd, adam, adamw");
}

void setLearningRate(torch::optim::Optimizer& optimizer, double lr) {
    for (auto& group : optimizer.param_groups())
        group.options().set_lr(lr);
}

} // namespace ts
