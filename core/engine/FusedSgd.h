#pragma once
#include <torch/optim/sgd.h>

namespace ts {

// torch::optim::SGD whose step runs SGD's update (weight decay, momentum,
// step) as one fused kernel per device and dtype (compat::fusedSgd), one pass
// over each parameter, gradient and momentum buffer, where torch::optim::SGD
// runs 3-4 operators per parameter and allocates the decayed gradient. The
// state is SGD's own (SGDParamState's momentum buffer), so a checkpoint saved
// by either loads into the other. Needs compat::fusedSgdBuilt().
class FusedSGD : public torch::optim::SGD {
public:
    using SGD::SGD;
    torch::Tensor step(LossClosure closure = nullptr) override;

private:
    void update();
};

} // namespace ts
