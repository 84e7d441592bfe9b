#include "engine/OptimizerFactory.h"

#include "config/ConfigError.h"
#include "engine/FusedSgd.h"
#include "env/TorchCompat.h"

namespace ts {
namespace {

MadeOptimizer makeSgd(const ExperimentConfig& c, std::vector<torch::Tensor> parameters) {
    using namespace torch::optim;
    const auto options = SGDOptions(c.lr).momentum(c.momentum).weight_decay(c.weight_decay);
    std::string why;
    if (!c.fused_optimizer)
        why = "fused_optimizer is off";
    else if (!compat::fusedSgdBuilt())
        why = "LibTorch " TORCH_VERSION " has no fused SGD kernel; 2.4 added it";
    for (const auto& p : parameters)
        if (why.empty() && !p.is_non_overlapping_and_dense())
            why = "a parameter is not dense, which the fused kernel needs";
    if (!why.empty())
        return {std::make_unique<SGD>(std::move(parameters), options),
                "torch::optim::SGD (" + why + ")"};
    return {std::make_unique<FusedSGD>(std::move(parameters), options),
            "fused SGD (at::_fused_sgd_)"};
}

} // namespace

MadeOptimizer makeOptimizer(const ExperimentConfig& c, std::vector<torch::Tensor> parameters) {
    using namespace torch::optim;
    if (c.optimizer == "sgd") return makeSgd(c, std::move(parameters));
    if (c.optimizer == "adam")
        return {std::make_unique<Adam>(std::move(parameters),
                                       AdamOptions(c.lr).weight_decay(c.weight_decay)),
                "torch::optim::Adam"};
    if (c.optimizer == "adamw")
        return {std::make_unique<AdamW>(std::move(parameters),
                                        AdamWOptions(c.lr).weight_decay(c.weight_decay)),
                "torch::optim::AdamW"};
    throw ConfigError("optimizer \"" + c.optimizer + "\" is not one of sgd, adam, adamw");
}

void setLearningRate(torch::optim::Optimizer& optimizer, double lr) {
    for (auto& group : optimizer.param_groups())
        group.options().set_lr(lr);
}

} // namespace ts
