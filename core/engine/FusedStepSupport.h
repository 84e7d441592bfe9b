#pragma once
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include <torch/torch.h>

// What the fused optimizers (FusedSgd, FusedAdam) share: finding a
// parameter's state where torch::optim keeps it, and laying tensors out as
// their parameter, since the fused kernels walk each storage as one flat array.
namespace ts::fused {

// torch::optim keys a parameter's state by its TensorImpl's address: written
// out as text in 1.13 (c10::guts::to_string), the pointer itself in 2.x.
template <typename Key> Key stateKey(c10::TensorImpl* impl) {
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream text;
        text << impl;
        return text.str();
    } else {
        return impl;
    }
}

inline bool sameLayoutAs(const at::Tensor& a, const at::Tensor& b) {
    return a.sizes() == b.sizes() && a.strides() == b.strides() && a.dtype() == b.dtype() &&
           a.device() == b.device();
}

// `t`'s values laid out as `like`: a loaded momentum buffer of a
// channels-last weight, say.
inline at::Tensor laidOutAs(const at::Tensor& t, const at::Tensor& like) {
    return sameLayoutAs(t, like) ? t : at::empty_like(like).copy_(t);
}

// One kernel call takes tensors of one device and one dtype.
using DeviceDtype = std::tuple<int, int, int>; // device type, index, dtype
inline DeviceDtype deviceDtype(const at::Tensor& p) {
    return {static_cast<int>(p.device().type()), p.device().index(),
            static_cast<int>(p.scalar_type())};
}

// The kernels need dense storage; the message names the setting that avoids them.
inline void requireDense(const at::Tensor& p, const char* optimizer) {
    if (p.grad().is_sparse() || !p.is_non_overlapping_and_dense())
        throw std::invalid_argument(std::string("fused ") + optimizer +
                                    " needs dense parameters and gradients (a parameter of "
                                    "shape " +
                                    c10::str(p.sizes()) + " is not); set fused_optimizer=false");
}

// torch::optim's step around `update`: the closure, if any, computes the loss
// with autograd on; the update runs without.
template <typename Update>
torch::Tensor stepWith(const torch::optim::Optimizer::LossClosure& closure, Update update) {
    torch::NoGradGuard no_grad;
    torch::Tensor loss;
    if (closure) {
        at::AutoGradMode enable_grad(true);
        loss = closure();
    }
    update();
    return loss;
}

} // namespace ts::fused
