#include "models/ResNetSpec.h"

#include <array>
#include <stdexcept>

namespace ts {
namespace {

struct Depth {
    const char* model;
    bool bottleneck;
    std::array<int, 4> blocks;
};

// torchvision: resnet18 = BasicBlock [2,2,2,2], resnet34 = BasicBlock [3,4,6,3],
// resnet50 = Bottleneck [3,4,6,3].
constexpr std::array<Depth, 3> kDepths{{
    {"resnet18", false, {2, 2, 2, 2}},
    {"resnet34", false, {3, 4, 6, 3}},
    {"resnet50", true, {3, 4, 6, 3}},
}};

std::string joinNames(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

ConvSpec conv(const std::string& name, int in, int out, int kernel, int stride) {
    return ConvSpec{name, in, out, kernel, stride, kernel / 2};
}

// One block as torchvision builds it; v1.5 Bottleneck strides on its 3x3 conv2.
BlockSpec makeBlock(const std::string& name, bool bottleneck, int in, int planes, int stride) {
    const int expansion = bottleneck ? 4 : 1;
    BlockSpec block;
    block.name = name;
    block.out_channels = planes * expansion;
    if (bottleneck) {
        block.convs = {conv("conv1", in, planes, 1, 1), conv("conv2", planes, planes, 3, stride),
                       conv("conv3", planes, block.out_channels, 1, 1)};
    } else {
        block.convs = {conv("conv1", in, planes, 3, stride), conv("conv2", planes, planes, 3, 1)};
    }
    if (stride != 1 || in != block.out_channels)
        block.downsample = conv("downsample.0", in, block.out_channels, 1, stride);
    return block;
}

const Depth& findDepth(const std::string& model) {
    for (const auto& d : kDepths)
        if (model == d.model) return d;
    throw std::invalid_argument("Unknown model '" + model + "'; expected one of " +
                                joinNames(resNetModels()) + ".");
}

} // namespace

const std::vector<std::string>& resNetModels() {
    static const std::vector<std::string> models{"resnet18", "resnet34", "resnet50"};
    return models;
}

const std::vector<std::string>& resNetStems() {
    static const std::vector<std::string> stems{"cifar", "imagenet"};
    return stems;
}

ResNetSpec resNetSpec(const std::string& model, const std::string& stem, int in_channels,
                      int num_classes) {
    const Depth& depth = findDepth(model);
    if (stem != "cifar" && stem != "imagenet")
        throw std::invalid_argument("Unknown stem '" + stem + "'; expected one of " +
                                    joinNames(resNetStems()) + ".");
    if (in_channels < 1)
        throw std::invalid_argument("Input channel count " + std::to_string(in_channels) +
                                    " is invalid; expected at least 1.");
    if (num_classes < 1)
        throw std::invalid_argument("Class count " + std::to_string(num_classes) +
                                    " is invalid; expected at least 1.");
    ResNetSpec spec;
    spec.model = model;
    spec.stem = stem;
    spec.in_channels = in_channels;
    spec.num_classes = num_classes;
    spec.bottleneck = depth.bottleneck;
    spec.maxpool = stem == "imagenet";
    spec.stem_conv = stem == "imagenet" ? conv("conv1", in_channels, 64, 7, 2)
                                        : conv("conv1", in_channels, 64, 3, 1);
    int in = 64;
    for (int layer = 0; layer < 4; ++layer) {
        const int planes = 64 << layer;
        for (int b = 0; b < depth.blocks[layer]; ++b) {
            const int stride = (layer > 0 && b == 0) ? 2 : 1;
            const std::string name = "layer" + std::to_string(layer + 1) + "." + std::to_string(b);
            spec.blocks.push_back(makeBlock(name, depth.bottleneck, in, planes, stride));
            in = spec.blocks.back().out_channels;
        }
    }
    spec.features = in;
    return spec;
}

std::string batchNormNameFor(const ConvSpec& conv) {
    if (conv.name == "downsample.0") return "downsample.1";
    return "bn" + conv.name.substr(4); // "convN" -> "bnN"
}

int convOutputSize(int in, int kernel, int stride, int padding) {
    return (in + 2 * padding - kernel) / stride + 1;
}

} // namespace ts
