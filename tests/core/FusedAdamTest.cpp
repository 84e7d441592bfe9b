// FusedAdam and FusedAdamW (at::_fused_adam_, at::_fused_adamw_ behind
// torch::optim's state) against torch::optim::Adam and AdamW themselves: the
// same parameters, moments and step counts after several steps, with and
// without weight decay and AMSGrad, on contiguous and channels-last weights,
// and checkpoints that move between the two. The kernels are LibTorch 2.4+;
// on 1.13 the factory must say why it runs the loop.
#include <gtest/gtest.h>

#include <torch/torch.h>

#include "OptimizerTestSupport.h"
#include "engine/FusedAdam.h"
#include "engine/FusedStepSupport.h"
#include "engine/OptimizerFactory.h"
#include "env/TorchCompat.h"

namespace ts {
namespace {

using namespace optimizer_testing;
using torch::optim::Adam;
using torch::optim::AdamOptions;
using torch::optim::AdamParamState;
using torch::optim::AdamW;
using torch::optim::AdamWOptions;
using torch::optim::AdamWParamState;

class FusedAdamTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!compat::fusedAdamBuilt())
            GTEST_SKIP() << "LibTorch " TORCH_VERSION " has no fused Adam kernel";
    }
};

// The fused optimizer's parameters after `steps` against the loop's, and each
// parameter's step count and moments.
template <typename Loop, typename Fused, typename State, typename Options>
void expectSameAsLoop(const Options& options, int steps) {
    expectFusedMatchesLoop<Loop, Fused>(
        options, steps, [](Loop& loop, const auto& loop_ps, Fused& fused, const auto& fused_ps) {
            using Key = typename std::decay_t<decltype(loop.state())>::key_type;
            const auto key = [](const torch::Tensor& p) {
                return fused::stateKey<Key>(p.unsafeGetTensorImpl());
            };
            for (size_t i = 0; i < fused_ps.size(); ++i) {
                const auto& a = static_cast<const State&>(*loop.state().at(key(loop_ps[i])));
                const auto& b = static_cast<const State&>(*fused.state().at(key(fused_ps[i])));
                EXPECT_EQ(b.step(), a.step()) << "parameter " << i;
                EXPECT_LT(
                    maxDifference({a.exp_avg(), a.exp_avg_sq()}, {b.exp_avg(), b.exp_avg_sq()}),
                    1e-6);
                EXPECT_EQ(b.max_exp_avg_sq().defined(), a.max_exp_avg_sq().defined());
            }
        });
}

TEST_F(FusedAdamTest, MatchesTorchOptimAdam) {
    expectSameAsLoop<Adam, FusedAdam, AdamParamState>(AdamOptions(1e-2), 6);
    expectSameAsLoop<Adam, FusedAdam, AdamParamState>(AdamOptions(1e-2).weight_decay(5e-4), 6);
    expectSameAsLoop<Adam, FusedAdam, AdamParamState>(
        AdamOptions(3e-3).betas({0.8, 0.99}).eps(1e-6).amsgrad(true), 6);
}

TEST_F(FusedAdamTest, MatchesTorchOptimAdamW) {
    expectSameAsLoop<AdamW, FusedAdamW, AdamWParamState>(AdamWOptions(1e-2), 6);
    expectSameAsLoop<AdamW, FusedAdamW, AdamWParamState>(AdamWOptions(1e-2).weight_decay(0.1), 6);
    expectSameAsLoop<AdamW, FusedAdamW, AdamWParamState>(
        AdamWOptions(1e-2).weight_decay(0.05).amsgrad(true), 1);
}

TEST_F(FusedAdamTest, MovesTheFirstStepByTheLearningRate) {
    // By hand: after one step both moments' bias corrections cancel, so each
    // element moves by lr * g / (|g| + eps) ~ lr against its gradient's sign;
    // AdamW first decays the weight by lr * wd.
    auto p = torch::full({5}, 2.0).set_requires_grad(true);
    FusedAdamW opt({p}, AdamWOptions(0.1).weight_decay(0.5));
    p.mutable_grad() = torch::full({5}, -3.0);
    opt.step();
    EXPECT_NEAR(p[0].item<double>(), 2.0 * (1 - 0.1 * 0.5) + 0.1, 1e-6);
}

TEST_F(FusedAdamTest, SkipsParametersWithoutGradients) {
    expectSkipsWithoutGradient<FusedAdam>(AdamOptions(1e-2));
}

TEST_F(FusedAdamTest, ContinuesFromTheLoopsCheckpointAndBack) {
    EXPECT_LT(
        (checkpointHandOverDifference<AdamW, FusedAdamW>(AdamWOptions(1e-2).weight_decay(0.01))),
        1e-5);
    EXPECT_LT((checkpointHandOverDifference<Adam, FusedAdam>(AdamOptions(1e-2).amsgrad(true))),
              1e-5);
}

TEST_F(FusedAdamTest, RefusesASparseGradientByName) {
    const std::string error = sparseGradientError<FusedAdam>(AdamOptions(0.1));
    EXPECT_NE(error.find("fused Adam needs dense"), std::string::npos) << error;
    EXPECT_NE(error.find("fused_optimizer=false"), std::string::npos) << error;
}

TEST(OptimizerFactory, SaysWhichAdamRunsAndWhy) {
    ExperimentConfig c;
    for (const char* name : {"adam", "adamw"}) {
        SCOPED_TRACE(name);
        c.optimizer = name;
        c.fused_optimizer = true;
        const bool w = c.optimizer == "adamw";
        const std::string title = w ? "AdamW" : "Adam";
        auto made = makeOptimizer(c, makeParameters());
        const bool fused = w ? dynamic_cast<FusedAdamW*>(made.optimizer.get()) != nullptr
                             : dynamic_cast<FusedAdam*>(made.optimizer.get()) != nullptr;
        if (compat::fusedAdamBuilt()) {
            EXPECT_EQ(made.implementation,
                      "fused " + title + (w ? " (at::_fused_adamw_)" : " (at::_fused_adam_)"));
            EXPECT_TRUE(fused);
        } else {
            EXPECT_EQ(made.implementation, "torch::optim::" + title +
                                               " (LibTorch " TORCH_VERSION " has no fused " +
                                               title + " kernel; 2.4 added it)");
            EXPECT_FALSE(fused);
        }
        c.fused_optimizer = false;
        made = makeOptimizer(c, makeParameters());
        EXPECT_EQ(made.implementation, "torch::optim::" + title + " (fused_optimizer is off)");
    }
}

} // namespace
} // namespace ts
