#pragma once
// Dynamic loss scaling for fp16 training (torch.cuda.amp.GradScaler), written
// on LibTorch's _amp_* ops, which exist only for CUDA tensors.
#include <vector>

#include <torch/torch.h>

namespace ts {

class LossScaler {
public:
    explicit LossScaler(const torch::Device& device, double init_scale = 65536.0,
                        double growth_factor = 2.0, double backoff_factor = 0.5,
                        int64_t growth_interval = 2000);

    torch::Tensor scale(const torch::Tensor& loss) const { return loss * scale_; }
    // Unscales the gradients in place; true when all are finite (step may run).
    bool unscale(const std::vector<torch::Tensor>& params);
    // Grows or backs off the scale after a step (skipped or not).
    void update();
    double currentScale() const { return scale_.item<double>(); }

    // Checkpoint state.
    torch::Tensor stateScale() const { return scale_; }
    torch::Tensor stateGrowthTracker() const { return growth_tracker_; }
    void restore(const torch::Tensor& scale, const torch::Tensor& growth_tracker);

private:
    torch::Tensor scale_;          // float32 [1] on the device
    torch::Tensor growth_tracker_; // int32 [1] on the device
    torch::Tensor found_inf_;      // float32 [1] on the device
    double growth_factor_, backoff_factor_;
    int64_t growth_interval_;
};

} // namespace ts
