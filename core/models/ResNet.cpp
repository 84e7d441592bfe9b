#include "models/ResNet.h"

namespace ts {
namespace {

// torchvision initialises every conv with kaiming_normal_(fan_out, relu) and
// every BatchNorm with weight 1, bias 0 (LibTorch's BatchNorm default already).
torch::nn::Conv2d makeConv(const ConvSpec& spec) {
    torch::nn::Conv2d conv(
        torch::nn::Conv2dOptions(spec.in_channels, spec.out_channels, spec.kernel)
            .stride(spec.stride)
            .padding(spec.padding)
            .bias(false));
    torch::NoGradGuard no_grad;
    torch::nn::init::kaiming_normal_(conv->weight, 0.0, torch::kFanOut, torch::kReLU);
    return conv;
}

torch::nn::BatchNorm2d makeNorm(int channels) {
    return torch::nn::BatchNorm2d(torch::nn::BatchNorm2dOptions(channels));
}

// "layer2.0" -> "layer2"
std::string layerOf(const BlockSpec& block) {
    return block.name.substr(0, block.name.find('.'));
}

} // namespace

ResidualBlockImpl::ResidualBlockImpl(const BlockSpec& spec) {
    for (const auto& conv : spec.convs) {
        convs_.push_back(register_module(conv.name, makeConv(conv)));
        norms_.push_back(register_module(batchNormNameFor(conv), makeNorm(conv.out_channels)));
    }
    if (spec.downsample) {
        downsample_ =
            register_module("downsample", torch::nn::Sequential(makeConv(*spec.downsample),
                                                                makeNorm(spec.out_channels)));
    }
}

// ReLUs and the residual addition work in place, as torchvision's
// ReLU(inplace=True) and `out += identity` do: no new activation tensor per
// op (large fresh allocations cost page faults every step), and batch norm's
// backward does not need the output they overwrite.
torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x) {
    torch::Tensor out = x;
    for (size_t i = 0; i < convs_.size(); ++i) {
        out = norms_[i]->forward(convs_[i]->forward(out));
        if (i + 1 < convs_.size()) out.relu_();
    }
    out += downsample_ ? downsample_->forward(x) : x;
    return out.relu_();
}

ResNetImpl::ResNetImpl(const ResNetSpec& spec) : spec_(spec) {
    conv1_ = register_module("conv1", makeConv(spec.stem_conv));
    bn1_ = register_module("bn1", makeNorm(spec.stem_conv.out_channels));
    std::string current_layer;
    for (const auto& block : spec.blocks) {
        const std::string layer = layerOf(block);
        if (layer != current_layer) {
            layers_.push_back(register_module(layer, torch::nn::Sequential()));
            current_layer = layer;
        }
        layers_.back()->push_back(ResidualBlock(block));
    }
    fc_ = register_module("fc", torch::nn::Linear(spec.features, spec.num_classes));
}

torch::Tensor ResNetImpl::forward(const torch::Tensor& x) {
    torch::Tensor out = bn1_->forward(conv1_->forward(x)).relu_();
    if (spec_.maxpool) out = torch::max_pool2d(out, {3, 3}, {2, 2}, {1, 1});
    for (auto& layer : layers_)
        out = layer->forward(out);
    out = torch::adaptive_avg_pool2d(out, {1, 1}).flatten(1);
    return fc_->forward(out);
}

} // namespace ts
