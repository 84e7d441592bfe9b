#pragma once
// The layer plan of torchvision's ResNet-18/34/50, without torch: the module
// builder (ResNet.cpp) and the analytic summary (ModelSummary.cpp) both walk it,
// so names and shapes cannot drift apart.
#include <optional>
#include <string>
#include <vector>

namespace ts {

// A bias-free convolution followed (in every ResNet) by a BatchNorm2d.
struct ConvSpec {
    std::string name; // module name inside its parent: "conv1", "downsample.0"
    int in_channels = 0, out_channels = 0, kernel = 1, stride = 1, padding = 0;
};

// One BasicBlock or Bottleneck ("layer2.0").
struct BlockSpec {
    std::string name;
    std::vector<ConvSpec> convs;        // conv1, conv2[, conv3]; each has its bnN
    std::optional<ConvSpec> downsample; // "downsample.0", followed by "downsample.1"
    int out_channels = 0;
};

struct ResNetSpec {
    std::string model; // resnet18 | resnet34 | resnet50
    std::string stem;  // imagenet | cifar
    int in_channels = 3, num_classes = 1000;
    bool bottleneck = false;
    ConvSpec stem_conv;  // "conv1"
    bool maxpool = true; // imagenet stem: 3x3 stride-2 max pool after conv1/bn1/relu
    std::vector<BlockSpec> blocks;
    int features = 512; // input width of fc
};

// Throws std::invalid_argument naming the unknown model or stem, or the
// non-positive channel/class count.
ResNetSpec resNetSpec(const std::string& model, const std::string& stem, int in_channels,
                      int num_classes);

// Models and stems resNetSpec() accepts, for messages and option lists.
const std::vector<std::string>& resNetModels();
const std::vector<std::string>& resNetStems();

// torchvision's name of the BatchNorm that follows `conv` ("conv2" -> "bn2",
// "downsample.0" -> "downsample.1").
std::string batchNormNameFor(const ConvSpec& conv);

// Spatial size after a convolution or pooling window: floor((in + 2p - k) / s) + 1.
int convOutputSize(int in, int kernel, int stride, int padding);

} // namespace ts
