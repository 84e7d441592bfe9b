#include "engine/FusedSgd.h"

#include <map>

#include "engine/FusedStepSupport.h"
#include "env/TorchCompat.h"

namespace ts {
namespace {

using namespace fused;

// The tensors of one kernel call: one device, one dtype, and buffers that
// are all new or all carried over (the kernel's is_first_step is per call).
struct KernelCall {
    std::vector<at::Tensor> params, grads, buffers;
};
using KernelCallKey = std::tuple<DeviceDtype, bool>; // and whether it is the first step

} // namespace

torch::Tensor FusedSGD::step(LossClosure closure) {
    return stepWith(closure, [this] { update(); });
}

void FusedSGD::update() {
    using Key = typename std::decay_t<decltype(state_)>::key_type;
    for (auto& group : param_groups_) {
        const auto& o = static_cast<const torch::optim::SGDOptions&>(group.options());
        const bool momentum = o.momentum() != 0;
        std::map<KernelCallKey, KernelCall> calls;
        for (auto& p : group.params()) {
            if (!p.grad().defined()) continue;
            requireDense(p, "SGD");
            bool first = false;
            at::Tensor buffer;
            if (momentum) {
                auto& slot = state_[stateKey<Key>(p.unsafeGetTensorImpl())];
                if (!slot) slot = std::make_unique<torch::optim::SGDParamState>();
                auto& state = static_cast<torch::optim::SGDParamState&>(*slot);
                first = !state.momentum_buffer().defined();
                buffer = first ? at::empty_like(p) : laidOutAs(state.momentum_buffer(), p);
                state.momentum_buffer(buffer);
            }
            KernelCall& call = calls[{deviceDtype(p), first}];
            call.params.push_back(p);
            call.grads.push_back(laidOutAs(p.grad(), p));
            if (momentum) call.buffers.push_back(buffer);
        }
        for (auto& [key, call] : calls) {
            compat::FusedSgdArgs args;
            args.lr = o.lr();
            args.momentum = o.momentum();
            args.dampening = o.dampening();
            args.weight_decay = o.weight_decay();
            args.nesterov = o.nesterov();
            args.first_step = std::get<1>(key);
            compat::fusedSgd(call.params, call.grads, call.buffers, args);
        }
    }
}

} // namespace ts
