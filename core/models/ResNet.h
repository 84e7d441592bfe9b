#pragma once
// torchvision's ResNet as LibTorch modules. Submodules are registered under
// torchvision's attribute names and in its order, so named_parameters() and
// named_buffers() list exactly what `model.state_dict()` holds in Python.
#include <torch/torch.h>

#include "models/ResNetSpec.h"

namespace ts {

// BasicBlock (two 3x3 convs) or Bottleneck (1x1, strided 3x3, 1x1 with
// expansion 4), chosen by how many convs the spec lists.
class ResidualBlockImpl : public torch::nn::Module {
public:
    explicit ResidualBlockImpl(const BlockSpec& spec);
    torch::Tensor forward(const torch::Tensor& x);

private:
    std::vector<torch::nn::Conv2d> convs_;
    std::vector<torch::nn::BatchNorm2d> norms_;
    torch::nn::Sequential downsample_{nullptr};
};
TORCH_MODULE(ResidualBlock);

class ResNetImpl : public torch::nn::Module {
public:
    explicit ResNetImpl(const ResNetSpec& spec);
    torch::Tensor forward(const torch::Tensor& x);
    const ResNetSpec& spec() const { return spec_; }

private:
    ResNetSpec spec_;
    torch::nn::Conv2d conv1_{nullptr};
    torch::nn::BatchNorm2d bn1_{nullptr};
    std::vector<torch::nn::Sequential> layers_;
    torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(ResNet);

} // namespace ts
