#pragma once
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>

namespace ts {

// torch::optim::Adam and AdamW whose step runs the whole update (weight
// decay, both moments, bias corrections, the step; AMSGrad's maximum) as one
// fused kernel per device and dtype (compat::fusedAdam), where torch::optim
// runs a dozen operators per parameter. The state is torch::optim's own
// (AdamParamState, AdamWParamState: the step count and the moments), so a
// checkpoint saved by either loads into the other. Needs compat::fusedAdamBuilt().
class FusedAdam : public torch::optim::Adam {
public:
    using Adam::Adam;
    torch::Tensor step(LossClosure closure = nullptr) override;
};

class FusedAdamW : public torch::optim::AdamW {
public:
    using AdamW::AdamW;
    torch::Tensor step(LossClosure closure = nullptr) override;
};

} // namespace ts
