#include "engine/LossScaler.h"

namespace ts {

LossScaler::LossScaler(const torch::Device& device, double init_scale, double growth_factor,
                       double backoff_factor, int64_t growth_interval)
    : growth_factor_(growth_factor), backoff_factor_(backoff_factor),
      growth_interval_(growth_interval) {
    const auto f32 = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    scale_ = torch::full({1}, init_scale, f32);
    growth_tracker_ = torch::zeros({1}, f32.dtype(torch::kInt32));
    found_inf_ = torch::zeros({1}, f32);
}

bool LossScaler::unscale(const std::vector<torch::Tensor>& params) {
    found_inf_.zero_();
    std::vector<torch::Tensor> grads;
    grads.reserve(params.size());
    for (const auto& p : params)
        if (p.grad().defined()) grads.push_back(p.grad());
    if (!grads.empty()) {
        const auto inv_scale = scale_.to(torch::kFloat64).reciprocal().to(torch::kFloat32);
        at::_amp_foreach_non_finite_check_and_unscale_(grads, found_inf_, inv_scale);
    }
    return found_inf_.item<float>() == 0.0f;
}

void LossScaler::update() {
    at::_amp_update_scale_(scale_, growth_tracker_, found_inf_, growth_factor_, backoff_factor_,
                           growth_interval_);
}

void LossScaler::restore(const torch::Tensor& scale, const torch::Tensor& growth_tracker) {
    scale_.copy_(scale);
    growth_tracker_.copy_(growth_tracker);
}

} // namespace ts
