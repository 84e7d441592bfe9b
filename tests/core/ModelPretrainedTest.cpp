// loadPretrained: transfer rules (classifier head, first conv), errors that
// name the tensor, and nothing copied when a file is rejected.
#include <map>

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "core/ModelTestSupport.h"
#include "models/Model.h"

namespace ts {
namespace {

std::unique_ptr<Model> makeResNet(const std::string& stem, int in_channels, int num_classes) {
    ExperimentConfig config;
    config.model = "resnet18";
    config.stem = stem;
    config.num_classes = num_classes;
    return createModel(config, in_channels);
}

// Everything a state_dict holds, cloned so later loads cannot alias it.
StateDict stateDictOf(Model& model) {
    StateDict dict;
    for (const auto& [name, t] : model.namedParameters())
        dict.emplace_back(name, t.detach().clone());
    for (const auto& [name, t] : model.namedBuffers())
        dict.emplace_back(name, t.clone());
    return dict;
}

std::map<std::string, torch::Tensor> tensorsOf(Model& model) {
    std::map<std::string, torch::Tensor> out;
    for (const auto& item : stateDictOf(model))
        out.insert(item);
    return out;
}

std::string loadError(Model& model, const StateDict& weights) {
    try {
        loadPretrained(model, weights, "weights.pt");
    } catch (const ModelError& e) {
        return e.what();
    }
    return "no error";
}

TEST(ModelPretrained, ReplacesTheClassifierHeadForOtherClassCounts) {
    auto source = makeResNet("imagenet", 3, 1000);
    auto target = makeResNet("imagenet", 3, 100);
    const auto before = tensorsOf(*target);
    const std::string report = loadPretrained(*target, stateDictOf(*source), "in1k.pt");
    EXPECT_EQ(report,
              "loaded 120 tensors from in1k.pt; replaced classifier head fc (1000 -> 100 classes)");
    const auto src = tensorsOf(*source), after = tensorsOf(*target);
    EXPECT_TRUE(after.at("layer3.1.conv2.weight").equal(src.at("layer3.1.conv2.weight")));
    EXPECT_TRUE(after.at("bn1.running_var").equal(src.at("bn1.running_var")));
    EXPECT_TRUE(after.at("fc.weight").equal(before.at("fc.weight")));
    EXPECT_EQ(after.at("fc.bias").sizes(), (std::vector<int64_t>{100}));
}

TEST(ModelPretrained, SameShapesLoadEverythingIntoChannelsLastModels) {
    auto source = makeResNet("cifar", 3, 10);
    auto target = makeResNet("cifar", 3, 10);
    target->to(torch::kCPU, /*channels_last=*/true);
    EXPECT_EQ(loadPretrained(*target, stateDictOf(*source), "w.pt"),
              "loaded 122 tensors from w.pt");
    const auto src = tensorsOf(*source);
    for (const auto& [name, t] : target->namedParameters()) {
        EXPECT_TRUE(t.equal(src.at(name))) << name;
        if (t.dim() == 4) {
            EXPECT_TRUE(t.is_contiguous(at::MemoryFormat::ChannelsLast)) << name;
        }
    }
}

TEST(ModelPretrained, KeepsTheFirstConvWhenOnlyInputChannelsDiffer) {
    auto source = makeResNet("cifar", 3, 10);
    auto target = makeResNet("cifar", 1, 10);
    const std::string report = loadPretrained(*target, stateDictOf(*source), "rgb.pt");
    EXPECT_NE(report.find("loaded 121 tensors"), std::string::npos) << report;
    EXPECT_NE(report.find("conv1.weight (weights are for 3 input channels, the model has 1)"),
              std::string::npos)
        << report;
}

TEST(ModelPretrained, ShapeMismatchNamesTheTensorAndBothShapesAndCopiesNothing) {
    auto target = makeResNet("imagenet", 3, 10);
    const auto before = tensorsOf(*target);
    StateDict weights = stateDictOf(*makeResNet("imagenet", 3, 10));
    for (auto& [name, t] : weights)
        if (name == "layer2.1.conv1.weight") t = torch::zeros({128, 64, 3, 3});
    const std::string error = loadError(*target, weights);
    EXPECT_NE(error.find("'layer2.1.conv1.weight'"), std::string::npos) << error;
    EXPECT_NE(error.find("[128, 64, 3, 3] in the weights but [128, 128, 3, 3] in the model"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("weights.pt"), std::string::npos) << error;
    EXPECT_TRUE(tensorsOf(*target).at("conv1.weight").equal(before.at("conv1.weight")));

    // A stem of another kernel size is not a channel change: also an error.
    const std::string stem_error = loadError(*target, stateDictOf(*makeResNet("cifar", 3, 10)));
    EXPECT_NE(stem_error.find("'conv1.weight' has shape [64, 3, 3, 3] in the weights but "
                              "[64, 3, 7, 7] in the model"),
              std::string::npos)
        << stem_error;
}

TEST(ModelPretrained, MissingTensorsAndExtrasAreReported) {
    auto target = makeResNet("cifar", 3, 10);
    const StateDict full = stateDictOf(*makeResNet("cifar", 3, 10));
    auto without = [&](auto&& drop) {
        StateDict out;
        for (const auto& item : full)
            if (!drop(item.first)) out.push_back(item);
        return out;
    };
    const std::string missing = loadError(
        *target, without([](const std::string& n) { return n == "layer3.1.bn2.running_var"; }));
    EXPECT_NE(missing.find("no tensor 'layer3.1.bn2.running_var'"), std::string::npos) << missing;

    const std::string headless = loadPretrained(
        *target, without([](const std::string& n) { return n.rfind("fc.", 0) == 0; }), "b.pt");
    EXPECT_EQ(headless, "loaded 120 tensors from b.pt; classifier head fc not in the weights, kept "
                        "its initialisation");

    StateDict old_style = without(
        [](const std::string& n) { return n.find("num_batches_tracked") != std::string::npos; });
    old_style.emplace_back("aux.weight", torch::ones({3}));
    const std::string report = loadPretrained(*target, old_style, "old.pt");
    EXPECT_EQ(report, "loaded 102 tensors from old.pt; 20 num_batches_tracked absent (left at 0); "
                      "ignored 1 tensors the model does not have");
}

TEST(ModelPretrained, LoadsIntoTorchScriptModels) {
    ExperimentConfig config;
    config.model = "torchscript";
    config.model_path = test::modelFixture("tiny_script.pt").string();
    auto model = createModel(config, 3);
    StateDict weights = readStateDict(config.model_path);
    for (auto& [name, t] : weights)
        t = t.clone().fill_(0.25);
    const std::string report = loadPretrained(*model, weights, "tiny.pt");
    EXPECT_EQ(report, "loaded 8 tensors from tiny.pt");
    for (const auto& [name, t] : model->namedParameters())
        EXPECT_TRUE(t.eq(0.25).all().item<bool>()) << name;
}

} // namespace
} // namespace ts
