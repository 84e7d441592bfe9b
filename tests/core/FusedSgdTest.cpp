// FusedSGD (at::_fused_sgd_ behind torch::optim::SGD's state) against
// torch::optim::SGD itself: the same parameters and momentum buffers after
// several steps, for the layouts and options Trainscope trains with, and
// checkpoints that move between the two. The kernel is LibTorch 2.4+; on 1.13
// the factory must say why it runs the loop.
#include <gtest/gtest.h>

#include <sstream>

#include <torch/torch.h>

#include "engine/FusedSgd.h"
#include "engine/OptimizerFactory.h"
#include "env/TorchCompat.h"

namespace ts {
namespace {

using torch::optim::SGD;
using torch::optim::SGDOptions;
using torch::optim::SGDParamState;

// Parameters shaped like a ResNet's: a conv weight, the same in channels-last,
// a bias and a length that leaves a tail after the vectorized part.
std::vector<torch::Tensor> makeParameters() {
    torch::manual_seed(7);
    std::vector<torch::Tensor> ps = {
        torch::randn({8, 3, 3, 3}),
        torch::randn({16, 8, 3, 3}).contiguous(torch::MemoryFormat::ChannelsLast),
        torch::randn({8}),
        torch::randn({37}),
    };
    for (auto& p : ps)
        p.set_requires_grad(true);
    return ps;
}

std::vector<torch::Tensor> cloneParameters(const std::vector<torch::Tensor>& ps) {
    std::vector<torch::Tensor> out;
    for (const auto& p : ps)
        out.push_back(p.detach().clone(torch::MemoryFormat::Preserve).set_requires_grad(true));
    return out;
}

// Gradients that depend on the step and on the parameter, laid out as the
// parameter (as AccumulateGrad lays them out).
void setGradients(std::vector<torch::Tensor>& ps, int step) {
    for (size_t i = 0; i < ps.size(); ++i) {
        torch::NoGradGuard no_grad;
        auto g = torch::sin(ps[i] * (step + 1) + static_cast<double>(i)) * 0.5;
        ps[i].mutable_grad() = g.contiguous(ps[i].suggest_memory_format());
    }
}

void train(torch::optim::Optimizer& opt, std::vector<torch::Tensor>& ps, int from, int to) {
    for (int s = from; s < to; ++s) {
        setGradients(ps, s);
        opt.step();
    }
}

double maxDifference(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i)
        d = std::max(d, (a[i] - b[i]).abs().max().item<double>());
    return d;
}

// `to` takes over `from`'s state through a checkpoint archive, as a resumed
// run does.
void moveState(torch::optim::Optimizer& from, torch::optim::Optimizer& to) {
    std::stringstream saved;
    torch::serialize::OutputArchive out;
    from.save(out);
    out.save_to(saved);
    torch::serialize::InputArchive in;
    in.load_from(saved);
    to.load(in);
}

class FusedSgd : public ::testing::Test {
protected:
    void SetUp() override {
        if (!compat::fusedSgdBuilt())
            GTEST_SKIP() << "LibTorch " TORCH_VERSION " has no fused SGD kernel";
    }
};

void expectSameAsLoop(const SGDOptions& options, int steps) {
    auto loop_ps = makeParameters();
    auto fused_ps = cloneParameters(loop_ps);
    SGD loop(loop_ps, options);
    FusedSGD fused(fused_ps, options);
    train(loop, loop_ps, 0, steps);
    train(fused, fused_ps, 0, steps);
    EXPECT_LT(maxDifference(loop_ps, fused_ps), 1e-5);
    for (size_t i = 0; i < fused_ps.size(); ++i)
        EXPECT_EQ(fused_ps[i].strides(), loop_ps[i].strides()) << "parameter " << i;
    EXPECT_EQ(fused.state().size(), loop.state().size());
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
    auto ps = makeParameters();
    FusedSGD opt(ps, SGDOptions(0.05).momentum(0.9));
    const auto before = ps[2].detach().clone();
    setGradients(ps, 0);
    ps[2].mutable_grad().reset();
    opt.step();
    EXPECT_TRUE(torch::equal(ps[2], before));
    EXPECT_EQ(opt.state().size(), ps.size() - 1);
}

TEST_F(FusedSgd, ContinuesFromTheLoopsCheckpointAndBack) {
    const auto options = SGDOptions(0.05).momentum(0.9).weight_decay(5e-4);
    auto reference = makeParameters();
    SGD straight(reference, options);
    train(straight, reference, 0, 6);

    auto ps = cloneParameters(makeParameters());
    SGD first(ps, options);
    train(first, ps, 0, 2);
    FusedSGD second(ps, options);
    moveState(first, second);
    train(second, ps, 2, 4);
    SGD third(ps, options);
    moveState(second, third);
    train(third, ps, 4, 6);
    EXPECT_LT(maxDifference(reference, ps), 1e-5);
}

TEST_F(FusedSgd, RefusesASparseGradientByName) {
    auto p = torch::zeros({4, 3}).set_requires_grad(true);
    FusedSGD opt({p}, SGDOptions(0.1).momentum(0.9));
    p.mutable_grad() = torch::eye(4, 3).to_sparse();
    try {
        opt.step();
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("fused_optimizer=false"), std::string::npos);
    }
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

    c.optimizer = "adamw";
    EXPECT_EQ(makeOptimizer(c, makeParameters()).implementation, "torch::optim::AdamW");
}

} // namespace
} // namespace ts
