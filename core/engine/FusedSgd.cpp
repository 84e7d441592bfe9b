#include "engine/FusedSgd.h"

#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "env/TorchCompat.h"

namespace ts {
namespace {

// torch::optim keys a parameter's state by its TensorImpl's address: written
// out as text in 1.13 (c10::guts::to_string), the pointer itself in 2.x.
template <typename Key> Key sgdStateKey(c10::TensorImpl* impl) {
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream text;
        text << impl;
        return text.str();
    } else {
        return impl;
    }
}

bool sameLayoutAs(const at::Tensor& a, const at::Tensor& b) {
    return a.sizes() == b.sizes() && a.strides() == b.strides() && a.dtype() == b.dtype() &&
           a.device() == b.device();
}

// `t`'s values laid out as `like` (the kernel walks both storages as one flat
// array): a loaded momentum buffer of a channels-last weight, say.
at::Tensor laidOutAs(const at::Tensor& t, const at::Tensor& like) {
    return sameLayoutAs(t, like) ? t : at::empty_like(like).copy_(t);
}

// The tensors of one kernel call: one device, one dtype, and buffers that
// are all new or all carried over (the kernel's is_first_step is per call).
struct KernelCall {
    std::vector<at::Tensor> params, grads, buffers;
};
using KernelCallKey = std::tuple<int, int, int, bool>; // device type, index, dtype, first step

KernelCallKey kernelCallKey(const at::Tensor& p, bool first) {
    return {static_cast<int>(p.device().type()), p.device().index(),
            static_cast<int>(p.scalar_type()), first};
}

} // namespace

torch::Tensor FusedSGD::step(LossClosure closure) {
    torch::NoGradGuard no_grad;
    torch::Tensor loss;
    if (closure) {
        at::AutoGradMode enable_grad(true);
        loss = closure();
    }
    using Key = typename std::decay_t<decltype(state_)>::key_type;
    for (auto& group : param_groups_) {
        const auto& o = static_cast<const torch::optim::SGDOptions&>(group.options());
        const bool momentum = o.momentum() != 0;
        std::map<KernelCallKey, KernelCall> calls;
        for (auto& p : group.params()) {
            if (!p.grad().defined()) continue;
            if (p.grad().is_sparse() || !p.is_non_overlapping_and_dense())
                throw std::invalid_argument(
                    "fused SGD needs dense parameters and gradients (a parameter of shape " +
                    c10::str(p.sizes()) + " is not); set fused_optimizer=false");
            bool first = false;
            at::Tensor buffer;
            if (momentum) {
                auto& slot = state_[sgdStateKey<Key>(p.unsafeGetTensorImpl())];
                if (!slot) slot = std::make_unique<torch::optim::SGDParamState>();
                auto& state = static_cast<torch::optim::SGDParamState&>(*slot);
                first = !state.momentum_buffer().defined();
                buffer = first ? at::empty_like(p) : laidOutAs(state.momentum_buffer(), p);
                state.momentum_buffer(buffer);
            }
            KernelCall& call = calls[kernelCallKey(p, first)];
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
            args.first_step = std::get<3>(key);
            compat::fusedSgd(call.params, call.grads, call.buffers, args);
        }
    }
    return loss;
}

} // namespace ts
