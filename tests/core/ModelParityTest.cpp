// Our ResNets against torchvision: weights saved by Python torch.save (and
// torch.jit.save) load by name and give the same logits. Skips without
// /usr/bin/python3 + torch.
#include <filesystem>
#include <iostream>
#include <map>

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "core/ModelTestSupport.h"
#include "models/Model.h"

namespace ts {
namespace {

class ModelParity : public ::testing::Test {
protected:
    // One Python run writes every case (about 300 MB of weights, removed after).
    static void SetUpTestSuite() {
        if (!test::pythonTorchAvailable()) return;
        dir_ = test::freshTempDir("model_parity");
        generated_ = test::runTorchvisionReference("parity", dir_, &log_);
    }
    static void TearDownTestSuite() {
        if (!dir_.empty()) std::filesystem::remove_all(dir_);
    }
    void SetUp() override {
        if (!test::pythonTorchAvailable()) GTEST_SKIP() << "/usr/bin/python3 with torch is absent";
        ASSERT_TRUE(generated_) << log_;
    }

    static std::string file(const std::string& name) { return (dir_ / name).string(); }

    // Max |ours - torchvision| over the saved logits of `tag` (eval mode).
    static double maxDiff(Model& model, const std::string& tag) {
        std::map<std::string, torch::Tensor> io;
        for (const auto& item : readStateDict(file(tag + "_io.pt")))
            io.insert(item);
        model.train(false);
        torch::NoGradGuard no_grad;
        const torch::Tensor ours = model.forward(io.at("input"));
        EXPECT_EQ(ours.sizes(), io.at("output").sizes());
        const double diff = (ours - io.at("output")).abs().max().item<double>();
        const double largest = io.at("output").abs().max().item<double>();
        std::cout << "[ parity ] " << tag << " (" << model.name() << "): max |diff| = " << diff
                  << ", max |logit| = " << largest << "\n";
        // What the difference has beyond a relative 1e-6 of the largest logit
        // (torch.allclose's rtol): ResNet-50's logits reach 500, and another
        // BLAS (LibTorch 2.x's MKL against 1.13's OpenBLAS) rounds its sums
        // apart by 3e-4 there, 6e-7 of the logit.
        return diff - 1e-6 * largest;
    }

    static std::unique_ptr<Model> loaded(const std::string& model, const std::string& stem,
                                         const std::string& weights, std::string* report) {
        ExperimentConfig config;
        config.model = model;
        config.stem = stem;
        config.num_classes = 10;
        auto net = createModel(config, 3);
        *report = loadPretrained(*net, readStateDict(file(weights)), weights);
        return net;
    }

    static inline std::filesystem::path dir_;
    static inline bool generated_ = false;
    static inline std::string log_;
};

TEST_F(ModelParity, Resnet18ImagenetStem) {
    std::string report;
    auto net = loaded("resnet18", "imagenet", "resnet18_imagenet.pt", &report);
    EXPECT_EQ(report, "loaded 122 tensors from resnet18_imagenet.pt");
    EXPECT_LT(maxDiff(*net, "resnet18_imagenet"), 1e-4);
    net->to(torch::kCPU, /*channels_last=*/true); // other kernels, same function
    EXPECT_LT(maxDiff(*net, "resnet18_imagenet"), 1e-4);
}

TEST_F(ModelParity, Resnet18CifarStem) {
    std::string report;
    auto net = loaded("resnet18", "cifar", "resnet18_cifar.pt", &report);
    EXPECT_EQ(report, "loaded 122 tensors from resnet18_cifar.pt");
    EXPECT_LT(maxDiff(*net, "resnet18_cifar"), 1e-4);
}

TEST_F(ModelParity, Resnet50) {
    std::string report;
    auto net = loaded("resnet50", "imagenet", "resnet50_imagenet.pt", &report);
    EXPECT_EQ(report, "loaded 320 tensors from resnet50_imagenet.pt");
    EXPECT_LT(maxDiff(*net, "resnet50_imagenet"), 1e-4);
}

TEST_F(ModelParity, NestedCheckpointWithDataParallelPrefix) {
    const StateDict plain = readStateDict(file("resnet18_cifar.pt"));
    const StateDict nested = readStateDict(file("resnet18_cifar_nested.pt"));
    ASSERT_EQ(nested.size(), plain.size());
    for (size_t i = 0; i < plain.size(); ++i) {
        EXPECT_EQ(nested[i].first, plain[i].first);
        EXPECT_TRUE(nested[i].second.equal(plain[i].second)) << plain[i].first;
    }
    std::string report;
    auto net = loaded("resnet18", "cifar", "resnet18_cifar_nested.pt", &report);
    EXPECT_LT(maxDiff(*net, "resnet18_cifar"), 1e-4);
}

TEST_F(ModelParity, TorchScriptArchiveAsWeightsAndAsModel) {
    std::string report;
    auto net = loaded("resnet18", "cifar", "resnet18_cifar_script.pt", &report);
    EXPECT_EQ(report, "loaded 122 tensors from resnet18_cifar_script.pt");
    EXPECT_LT(maxDiff(*net, "resnet18_cifar"), 1e-4);

    ExperimentConfig config;
    config.model = "torchscript";
    config.model_path = file("resnet18_cifar_script.pt");
    auto scripted = createModel(config, 3);
    EXPECT_EQ(scripted->namedParameters().size(), 62u);
    EXPECT_LT(maxDiff(*scripted, "resnet18_cifar"), 1e-4);
}

} // namespace
} // namespace ts
