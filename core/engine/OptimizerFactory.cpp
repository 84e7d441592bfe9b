#include "engine/OptimizerFactory.h"

#include "config/ConfigError.h"
#include "engine/FusedAdam.h"
#include "engine/FusedSgd.h"
#include "env/TorchCompat.h"

namespace ts {
namespace {

// Why the optimizer `name` loops over its parameters rather than running the
// fused kernel; empty when it can run it.
std::string whyNotFused(const ExperimentConfig& c, const std::vector<torch::Tensor>& parameters,
                        bool kernel_built, const std::string& name) {
    if (!c.fused_optimizer) return "fused_optimizer is off";
    if (!kernel_built)
        return "LibTorch " TORCH_VERSION " has no fused " + name + " kernel; 2.4 added it";
    for (const auto& p : parameters)
        if (!p.is_non_overlapping_and_dense())
            return "a parameter is not dense, which the fused kernel needs";
    return {};
}

// torch::optim's `Loop` or its fused subclass `Fused`, and which one it is.
template <typename Loop, typename Fused, typename Options>
MadeOptimizer make(const ExperimentConfig& c, std::vector<torch::Tensor> parameters,
                   const Options& options, bool kernel_built, const std::string& name,
                   const std::string& kernel) {
    const std::string why = whyNotFused(c, parameters, kernel_built, name);
    const std::string loop = "torch::optim::" + name;
    if (!why.empty())
        return {std::make_unique<Loop>(std::move(parameters), options), loop + " (" + why + ")"};
    return {std::make_unique<Fused>(std::move(parameters), options),
            "fused " + name + " (" + kernel + ")"};
}

} // namespace

MadeOptimizer makeOptimizer(const ExperimentConfig& c, std::vector<torch::Tensor> parameters) {
    using namespace torch::optim;
    if (c.optimizer == "sgd")
        return make<SGD, FusedSGD>(
            c, std::move(parameters),
            SGDOptions(c.lr).momentum(c.momentum).weight_decay(c.weight_decay),
            compat::fusedSgdBuilt(), "SGD", "at::_fused_sgd_");
    if (c.optimizer == "adam")
        return make<Adam, FusedAdam>(c, std::move(parameters),
                                     AdamOptions(c.lr).weight_decay(c.weight_decay),
                                     compat::fusedAdamBuilt(), "Adam", "at::_fused_adam_");
    if (c.optimizer == "adamw")
        return make<AdamW, FusedAdamW>(c, std::move(parameters),
                                       AdamWOptions(c.lr).weight_decay(c.weight_decay),
                                       compat::fusedAdamBuilt(), "AdamW", "at::_fused_adamw_");
    throw ConfigError("optimizer \"" + c.optimizer + "\" is not one of sgd, adam, adamw");
}

void setLearningRate(torch::optim::Optimizer& optimizer, double lr) {
    for (auto& group : optimizer.param_groups())
        group.options().set_lr(lr);
}

} // namespace ts
