// Analytic parameter/MAC counts against the published ResNet figures.
#include <cmath>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "models/ModelSummary.h"

namespace ts {
namespace {

const LayerSummary& layerNamed(const ModelSummary& summary, const std::string& name) {
    for (const auto& layer : summary.layers)
        if (layer.name == name) return layer;
    throw std::runtime_error("no layer " + name);
}

// MACs of convs and fc only, which is what torchvision publishes (its model
// docs list 1.81 / 3.66 / 4.09 GFLOPS, meaning MACs). Tools that also count
// BatchNorm (thop) report 1.82 / 3.67 / 4.11 G: within 1% of ours.
TEST(ModelSummary, ImagenetTotalsMatchThePublishedFigures) {
    struct Published {
        const char* model;
        int64_t params;
        double torchvision_gmacs, thop_gmacs;
    };
    for (const auto& p :
         {Published{"resnet18", 11689512, 1.81, 1.82}, Published{"resnet34", 21797672, 3.66, 3.67},
          Published{"resnet50", 25557032, 4.09, 4.11}}) {
        SCOPED_TRACE(p.model);
        const ModelSummary s = summarizeModel(p.model, "imagenet", 3, 224, 1000);
        EXPECT_EQ(s.total_params, p.params);
        EXPECT_NEAR(s.total_macs / 1e9, p.torchvision_gmacs, 0.005 * p.torchvision_gmacs);
        EXPECT_NEAR(s.total_macs / 1e9, p.thop_gmacs, 0.01 * p.thop_gmacs);
    }
}

// The CIFAR ResNet-18 usually quoted as "0.56 GFLOPs" (555.4 M MACs).
TEST(ModelSummary, CifarStemResnet18) {
    const ModelSummary s = summarizeModel("resnet18", "cifar", 3, 32, 10);
    EXPECT_EQ(s.total_params, 11173962);
    EXPECT_NEAR(s.total_macs / 1e9, 0.56, 0.01 * 0.56);
    EXPECT_EQ(std::round(s.total_macs / 1e7), 56); // rounds to 0.56 G
    EXPECT_EQ(layerNamed(s, "conv1").output_shape, (std::vector<int64_t>{64, 32, 32}));
    EXPECT_EQ(layerNamed(s, "layer4.1.conv2").output_shape, (std::vector<int64_t>{512, 4, 4}));
}

TEST(ModelSummary, LayersFollowTorchvisionModulesAndShapes) {
    const ModelSummary s = summarizeModel("resnet50", "imagenet", 3, 224, 1000);
    EXPECT_EQ(s.layers.front().name, "conv1");
    EXPECT_EQ(s.layers.back().name, "fc");
    EXPECT_EQ(layerNamed(s, "maxpool").output_shape, (std::vector<int64_t>{64, 56, 56}));
    const LayerSummary& down = layerNamed(s, "layer2.0.downsample.0");
    EXPECT_EQ(down.output_shape, (std::vector<int64_t>{512, 28, 28}));
    EXPECT_EQ(down.params, 256 * 512);
    EXPECT_DOUBLE_EQ(down.macs, 256.0 * 512 * 28 * 28);
    EXPECT_EQ(layerNamed(s, "layer2.0.conv2").output_shape, (std::vector<int64_t>{128, 28, 28}));
    EXPECT_EQ(layerNamed(s, "layer2.0.bn3").params, 2 * 512);
    EXPECT_EQ(layerNamed(s, "layer2.0.bn3").macs, 0);
    EXPECT_EQ(layerNamed(s, "fc").params, 2048 * 1000 + 1000);
    EXPECT_DOUBLE_EQ(layerNamed(s, "fc").macs, 2048.0 * 1000);
}

TEST(ModelSummary, ScalesWithInputChannelsSizeAndClasses) {
    const ModelSummary one = summarizeModel("resnet18", "cifar", 1, 32, 10);
    const ModelSummary three = summarizeModel("resnet18", "cifar", 3, 32, 10);
    EXPECT_EQ(three.total_params - one.total_params, 2 * 64 * 3 * 3);
    const ModelSummary big = summarizeModel("resnet18", "cifar", 3, 64, 10);
    // Convs scale with the pixel count; only fc does not.
    EXPECT_NEAR(big.total_macs - 5120, 4 * (three.total_macs - 5120), 1.0);
    const ModelSummary hundred = summarizeModel("resnet18", "cifar", 3, 32, 100);
    EXPECT_EQ(hundred.total_params - three.total_params, 90 * 513);
    const ModelSummary tiny = summarizeModel("resnet34", "imagenet", 1, 1, 2);
    EXPECT_EQ(layerNamed(tiny, "layer4.2.conv2").output_shape, (std::vector<int64_t>{512, 1, 1}));
}

TEST(ModelSummary, TextTableIsAlignedAndHasTotals) {
    const ModelSummary s = summarizeModel("resnet18", "imagenet", 3, 224, 1000);
    const std::string text = formatModelSummary(s);
    EXPECT_NE(text.find("Total params: 11,689,512"), std::string::npos) << text;
    EXPECT_NE(text.find("Total MACs:   1.81 G"), std::string::npos) << text;
    EXPECT_NE(text.find("layer3.1.bn2"), std::string::npos);
    // Every table row ends its right-aligned MACs column at the same width.
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line); // title
    std::getline(lines, line);
    const size_t width = line.size();
    for (size_t i = 0; i < s.layers.size() + 1 && std::getline(lines, line); ++i)
        EXPECT_EQ(line.size(), width) << line;
}

TEST(ModelSummary, JsonCarriesLayersAndTotals) {
    const ModelSummary s = summarizeModel("resnet34", "cifar", 1, 32, 10);
    const nlohmann::json j = toJson(s);
    EXPECT_EQ(j.at("model"), "resnet34");
    EXPECT_EQ(j.at("stem"), "cifar");
    EXPECT_EQ(j.at("in_channels"), 1);
    EXPECT_EQ(j.at("total_params").get<int64_t>(), s.total_params);
    EXPECT_DOUBLE_EQ(j.at("total_macs").get<double>(), s.total_macs);
    ASSERT_EQ(j.at("layers").size(), s.layers.size());
    EXPECT_EQ(j.at("layers")[0].at("name"), "conv1");
    EXPECT_EQ(j.at("layers")[0].at("output_shape"), (std::vector<int64_t>{64, 32, 32}));
}

TEST(ModelSummary, RejectsBadArgumentsByName) {
    auto messageOf = [](auto&& call) {
        try {
            call();
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(messageOf([] { summarizeModel("vgg16", "cifar", 3, 32, 10); }).find("'vgg16'"),
              std::string::npos);
    EXPECT_NE(messageOf([] { summarizeModel("resnet18", "mnist", 3, 32, 10); }).find("'mnist'"),
              std::string::npos);
    EXPECT_NE(messageOf([] { summarizeModel("resnet18", "cifar", 3, 0, 10); }).find("Input size 0"),
              std::string::npos);
    EXPECT_NE(messageOf([] { summarizeModel("resnet18", "cifar", 0, 32, 10); }).find("channel"),
              std::string::npos);
}

} // namespace
} // namespace ts
