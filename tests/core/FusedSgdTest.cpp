// FusedSGD (at::_fused_sgd_ behind torch::optim::SGD's state) against
// torch::optim::SGD itself: the same parameters and momentum buffers after
// several steps, for the layouts and options Trainscope trains with, and
// checkpoints that move between the two. The kernel is LibTorch 2.4+; on 1.13
// the factory must say why it runs the loop.
#include <gtest/gtest.h>

#include <torch/torch.h>

#include "OptimizerTestSupport.h"
#include "engine/FusedSgd.h"
#include "engine/OptimizerFactory.h"
#include "env/TorchCompat.h"

namespace ts {
namespace {

using torch::optim::SGD;
using torch::optim::SGDOptions;
using torch::optim::SGDParamState;

using namespace optimizer_testing;

class FusedSgd : public ::testing::Test {
protected:
    void SetUp() override {
        if (!compat::fusedSgdBuilt())
            GTEST_SKIP() << "LibTorch " TORCH_VERSION " has no fused SGD kernel";
    }
};

void expectSameAsLoop(const SGDOptions& options, int steps) {
    expectFusedMatchesLoop<SGD, FusedSGD>(options, steps, [](auto&&...) {});
}

TEST_F(FusedSgd, MatchesTorchOptimSgdWithMomentumAndWeightDecay) {
    expectSameAsLoop(SGDOptions(0.05).momentum(0.9).weight_decay(5e-4), 6);
}

TEST_F(FusedSgd, MatchesTorchOptimSgdOnItsFirstStep) {
    // The first step sets the momentum buffer to the decayed gradient.
    expectSameAsLoop(SGDOptions(0.05).momentum(0.9).weight_decay(5e-4), 1);
}

TEST_F(FusedSgd, MatchesTorchOptimSgdWithNesterovDampeningOrNoMomentum) {
    expectSameAsLoop(SGDOptions(0.1).momentum(0.9).nesterov(true), 4);
    expectSameAsLoop(SGDOptions(0.1).momentum(0.5).dampening(0.25).weight_decay(1e-3), 4);
    expectSameAsLoop(SGDOptions(0.1).weight_decay(1e-2), 4);
}

TEST_F(FusedSgd, MovesTheUpdateByTheExpectedAmount) {
    // One parameter, one step, by hand: p - lr * (g + wd * p).
    auto p = torch::full({5}, 2.0).set_requires_grad(true);
    FusedSGD opt({p}, SGDOptions(0.5).momentum(0.9).weight_decay(0.1));
    p.mutable_grad() = torch::full({5}, 1.0);
    opt.step();
    EXPECT_NEAR(p[0].item<double>(), 2.0 - 0.5 * (1.0 + 0.1 * 2.0), 1e-6);
    p.mutable_grad() = torch::full({5}, 1.0);
    opt.step(); // buffer 0.9 * 1.2 + (1 + 0.1 * 1.4)
    EXPECT_NEAR(p[0].item<double>(), 1.4 - 0.5 * (0.9 * 1.2 + 1.0 + 0.1 * 1.4), 1e-6);
}

TEST_F(FusedSgd, SkipsParametersWithoutGradients) {
    expectSkipsWithoutGradient<FusedSGD>(SGDOptions(0.05).momentum(0.9));
}

TEST_F(FusedSgd, ContinuesFromTheLoopsCheckpointAndBack) {
    EXPECT_LT((checkpointHandOverDifference<SGD, FusedSGD>(
                  SGDOptions(0.05).momentum(0.9).weight_decay(5e-4))),
              1e-5);
}

TEST_F(FusedSgd, RefusesASparseGradientByName) {
    const std::string error = sparseGradientError<FusedSGD>(SGDOptions(0.1).momentum(0.9));
    EXPECT_NE(error.find("fused_optimizer=false"), std::string::npos) << error;
}

TEST(OptimizerFactory, SaysWhichSgdRunsAndWhy) {
    ExperimentConfig c;
    c.optimizer = "sgd";
    auto made = makeOptimizer(c, makeParameters());
    if (compat::fusedSgdBuilt()) {
        EXPECT_EQ(made.implementation, "fused SGD (at::_fused_sgd_)");
        EXPECT_NE(dynamic_cast<FusedSGD*>(made.optimizer.get()), nullptr);
    } else {
        EXPECT_EQ(made.implementation, "torch::optim::SGD (LibTorch " TORCH_VERSION
                                       " has no fused SGD kernel; 2.4 added it)");
        EXPECT_EQ(dynamic_cast<FusedSGD*>(made.optimizer.get()), nullptr);
    }
    c.fused_optimizer = false;
    made = makeOptimizer(c, makeParameters());
    EXPECT_EQ(made.implementation, "torch::optim::SGD (fused_optimizer is off)");
    EXPECT_EQ(dynamic_cast<FusedSGD*>(made.optimizer.get()), nullptr);

    c.fused_optimizer = true;
    auto strided = torch::zeros({4, 6}).slice(1, 0, 6, 2).set_requires_grad(true);
    made = makeOptimizer(c, {strided});
    EXPECT_EQ(made.implementation.rfind("torch::optim::SGD (", 0), 0u) << made.implementation;
}

} // namespace
} // namespace ts
