// The built-in ResNets: torchvision names, sizes, shapes, init, layouts.
#include <fstream>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "core/ModelTestSupport.h"
#include "models/Model.h"
#include "models/ModelSummary.h"
#include "models/ResNetModel.h"

namespace ts {
namespace {

std::unique_ptr<Model> makeResNet(const std::string& model, const std::string& stem,
                                  int in_channels, int num_classes) {
    ExperimentConfig config;
    config.model = model;
    config.stem = stem;
    config.num_classes = num_classes;
    return createModel(config, in_channels);
}

std::vector<std::string> namesOf(const std::vector<std::pair<std::string, torch::Tensor>>& list) {
    std::vector<std::string> names;
    for (const auto& item : list)
        names.push_back(item.first);
    return names;
}

int64_t countParameters(Model& model) {
    int64_t total = 0;
    for (const auto& p : model.parameters())
        total += p.numel();
    return total;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(ModelResNet, NamesMatchTorchvisionInOrder) {
    if (!test::pythonTorchAvailable()) GTEST_SKIP() << "/usr/bin/python3 with torch is absent";
    const auto dir = test::freshTempDir("model_names");
    std::string log;
    ASSERT_TRUE(test::runTorchvisionReference("names", dir / "names.json", &log)) << log;
    std::ifstream in(dir / "names.json");
    const nlohmann::json reference = nlohmann::json::parse(in);
    for (const std::string model : {"resnet18", "resnet34", "resnet50"}) {
        SCOPED_TRACE(model);
        auto net = makeResNet(model, "imagenet", 3, 1000);
        EXPECT_EQ(namesOf(net->namedParameters()),
                  reference[model]["params"].get<std::vector<std::string>>());
        EXPECT_EQ(namesOf(net->namedBuffers()),
                  reference[model]["buffers"].get<std::vector<std::string>>());
        EXPECT_EQ(countParameters(*net), reference[model]["param_count"].get<int64_t>());
    }
    std::filesystem::remove_all(dir);
}

// Works without Python: a spot list of torchvision's names and exact sizes.
TEST(ModelResNet, SpotNamesAndTorchvisionParameterCounts) {
    struct Expected {
        const char* model;
        int64_t params;
        size_t param_tensors, buffer_tensors;
        std::vector<std::string> names;
    };
    const std::vector<Expected> cases{
        {"resnet18",
         11689512,
         62,
         60,
         {"conv1.weight", "bn1.weight", "bn1.bias", "bn1.running_mean", "bn1.running_var",
          "bn1.num_batches_tracked", "layer1.0.conv1.weight", "layer1.1.bn2.bias",
          "layer2.0.downsample.0.weight", "layer2.0.downsample.1.running_mean",
          "layer4.1.conv2.weight", "fc.weight", "fc.bias"}},
        {"resnet34",
         21797672,
         110,
         108,
         {"layer3.5.conv2.weight", "layer4.2.bn2.num_batches_tracked",
          "layer4.0.downsample.1.running_var"}},
        {"resnet50",
         25557032,
         161,
         159,
         {"layer1.0.conv3.weight", "layer1.0.bn3.running_var", "layer1.0.downsample.0.weight",
          "layer4.2.bn3.bias", "fc.weight"}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.model);
        auto net = makeResNet(c.model, "imagenet", 3, 1000);
        const auto params = namesOf(net->namedParameters());
        const auto buffers = namesOf(net->namedBuffers());
        EXPECT_EQ(countParameters(*net), c.params);
        EXPECT_EQ(params.size(), c.param_tensors);
        EXPECT_EQ(buffers.size(), c.buffer_tensors);
        EXPECT_EQ(params.front(), "conv1.weight");
        EXPECT_EQ(params.back(), "fc.bias");
        for (const auto& name : c.names)
            EXPECT_TRUE(contains(params, name) || contains(buffers, name)) << name;
    }
}

// Bottleneck v1.5 (as torchvision): the stride sits on the 3x3 conv2.
TEST(ModelResNet, BottleneckStridesOnItsThreeByThreeConv) {
    ResNetModel net(resNetSpec("resnet50", "imagenet", 3, 10));
    std::map<std::string, torch::nn::Conv2dImpl*> convs;
    for (const auto& item : net.net()->named_modules())
        if (auto* conv = item.value()->as<torch::nn::Conv2d>()) convs[item.key()] = conv;
    EXPECT_EQ(convs.at("layer2.0.conv1")->options.stride()->at(0), 1);
    EXPECT_EQ(convs.at("layer2.0.conv2")->options.stride()->at(0), 2);
    EXPECT_EQ(convs.at("layer2.0.downsample.0")->options.stride()->at(0), 2);
    EXPECT_EQ(convs.at("conv1")->options.kernel_size()->at(0), 7);
}

TEST(ModelResNet, ParameterCountsEqualTheAnalyticSummary) {
    for (const std::string model : {"resnet18", "resnet34", "resnet50"})
        for (const std::string stem : {"cifar", "imagenet"})
            for (const int channels : {1, 3}) {
                SCOPED_TRACE(model + " " + stem + " " + std::to_string(channels));
                auto net = makeResNet(model, stem, channels, 37);
                const ModelSummary summary = summarizeModel(model, stem, channels, 32, 37);
                EXPECT_EQ(countParameters(*net), summary.total_params);
                std::map<std::string, int64_t> by_module;
                for (const auto& [name, p] : net->namedParameters())
                    by_module[name.substr(0, name.rfind('.'))] += p.numel();
                for (const auto& layer : summary.layers) {
                    if (layer.params == 0) continue; // pooling: no module parameters
                    EXPECT_EQ(by_module[layer.name], layer.params) << layer.name;
                }
            }
}

TEST(ModelResNet, OutputShapesForBothStemsAndChannelCounts) {
    for (const std::string model : {"resnet18", "resnet34", "resnet50"})
        for (const std::string stem : {"cifar", "imagenet"})
            for (const int channels : {1, 3}) {
                SCOPED_TRACE(model + " " + stem + " " + std::to_string(channels));
                auto net = makeResNet(model, stem, channels, 7);
                net->train(false);
                torch::NoGradGuard no_grad;
                const torch::Tensor out = net->forward(torch::randn({1, channels, 16, 16}));
                EXPECT_EQ(out.sizes(), (std::vector<int64_t>{1, 7}));
                EXPECT_TRUE(out.isfinite().all().item<bool>());
            }
}

TEST(ModelResNet, InitialisesLikeTorchvision) {
    torch::manual_seed(3);
    auto net = makeResNet("resnet18", "cifar", 3, 10);
    std::map<std::string, torch::Tensor> params;
    for (const auto& [name, p] : net->namedParameters())
        params[name] = p;
    // kaiming_normal_(fan_out, relu): std = sqrt(2 / (out_channels * k * k)).
    const double expected_std = std::sqrt(2.0 / (512 * 3 * 3));
    const double measured_std = params.at("layer4.1.conv2.weight").std().item<double>();
    EXPECT_NEAR(measured_std, expected_std, 0.01 * expected_std);
    EXPECT_NEAR(params.at("layer4.1.conv2.weight").mean().item<double>(), 0.0, 1e-4);
    EXPECT_TRUE(params.at("layer3.0.bn2.weight").eq(1).all().item<bool>());
    EXPECT_TRUE(params.at("layer3.0.bn2.bias").eq(0).all().item<bool>());
}

TEST(ModelResNet, ChannelsLastKeepsTheFunctionAndConvertsFourDimTensors) {
    torch::manual_seed(5);
    auto plain = makeResNet("resnet18", "imagenet", 3, 10);
    torch::manual_seed(5);
    auto last = makeResNet("resnet18", "imagenet", 3, 10);
    last->to(torch::kCPU, /*channels_last=*/true);
    for (const auto& [name, p] : last->namedParameters()) {
        if (p.dim() == 4) {
            EXPECT_TRUE(p.is_contiguous(at::MemoryFormat::ChannelsLast)) << name;
        }
    }
    plain->train(false);
    last->train(false);
    torch::NoGradGuard no_grad;
    const torch::Tensor x = torch::randn({2, 3, 48, 48});
    const torch::Tensor diff = (plain->forward(x) - last->forward(x)).abs().max();
    EXPECT_LT(diff.item<double>(), 1e-4);
}

TEST(ModelResNet, TrainingModeSwitchesBatchNormStatistics) {
    auto net = makeResNet("resnet18", "cifar", 1, 10);
    const torch::Tensor x = torch::randn({4, 1, 16, 16});
    torch::Tensor before = net->namedBuffers().front().second.clone(); // bn1.running_mean
    net->train(false);
    net->forward(x);
    EXPECT_TRUE(net->namedBuffers().front().second.equal(before));
    net->train(true);
    net->forward(x);
    EXPECT_FALSE(net->namedBuffers().front().second.equal(before));
}

TEST(ModelResNet, BadConfigErrorsNameTheValue) {
    auto messageOf = [](const ExperimentConfig& config) {
        try {
            createModel(config, 3);
        } catch (const ModelError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    ExperimentConfig config;
    config.model = "resnet99";
    EXPECT_NE(messageOf(config).find("'resnet99'"), std::string::npos) << messageOf(config);
    config.model = "resnet18";
    config.stem = "tiny";
    EXPECT_NE(messageOf(config).find("'tiny'"), std::string::npos) << messageOf(config);
    config.stem = "cifar";
    config.num_classes = 0;
    EXPECT_NE(messageOf(config).find("Class count 0"), std::string::npos) << messageOf(config);
    config.model = "torchscript";
    EXPECT_NE(messageOf(config).find("model_path"), std::string::npos) << messageOf(config);
    config.model_path = "/nonexistent/net.pt";
    EXPECT_NE(messageOf(config).find("/nonexistent/net.pt"), std::string::npos);
}

} // namespace
} // namespace ts
