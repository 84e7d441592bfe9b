#pragma once
// What the fused optimizers' tests share (FusedSgdTest, FusedAdamTest):
// parameters shaped like a ResNet's, gradients that vary by step, training
// loops and a checkpoint moved from one optimizer to another.
#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <torch/torch.h>

namespace ts::optimizer_testing {

// Parameters shaped like a ResNet's: a conv weight, the same in channels-last,
// a bias and a length that leaves a tail after the vectorized part.
inline std::vector<torch::Tensor> makeParameters() {
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

inline std::vector<torch::Tensor> cloneParameters(const std::vector<torch::Tensor>& ps) {
    std::vector<torch::Tensor> out;
    for (const auto& p : ps)
        out.push_back(p.detach().clone(torch::MemoryFormat::Preserve).set_requires_grad(true));
    return out;
}

// Gradients that depend on the step and on the parameter, laid out as the
// parameter (as AccumulateGrad lays them out).
inline void setGradients(std::vector<torch::Tensor>& ps, int step) {
    for (size_t i = 0; i < ps.size(); ++i) {
        torch::NoGradGuard no_grad;
        auto g = torch::sin(ps[i] * (step + 1) + static_cast<double>(i)) * 0.5;
        ps[i].mutable_grad() = g.contiguous(ps[i].suggest_memory_format());
    }
}

inline void train(torch::optim::Optimizer& opt, std::vector<torch::Tensor>& ps, int from, int to) {
    for (int s = from; s < to; ++s) {
        setGradients(ps, s);
        opt.step();
    }
}

inline double maxDifference(const std::vector<torch::Tensor>& a,
                            const std::vector<torch::Tensor>& b) {
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i)
        d = std::max(d, (a[i] - b[i]).abs().max().item<double>());
    return d;
}

// `to` takes over `from`'s state through a checkpoint archive, as a resumed
// run does.
inline void moveState(torch::optim::Optimizer& from, torch::optim::Optimizer& to) {
    std::stringstream saved;
    torch::serialize::OutputArchive out;
    from.save(out);
    out.save_to(saved);
    torch::serialize::InputArchive in;
    in.load_from(saved);
    to.load(in);
}

// `Loop` and `Fused` trained `steps` steps side by side from the same
// parameters: the same values and layouts and as many states; then `check`
// compares what else they keep (loop, its parameters, fused, its parameters).
template <typename Loop, typename Fused, typename Options, typename Check>
void expectFusedMatchesLoop(const Options& options, int steps, Check check) {
    auto loop_ps = makeParameters();
    auto fused_ps = cloneParameters(loop_ps);
    Loop loop(loop_ps, options);
    Fused fused(fused_ps, options);
    train(loop, loop_ps, 0, steps);
    train(fused, fused_ps, 0, steps);
    EXPECT_LT(maxDifference(loop_ps, fused_ps), 1e-5);
    for (size_t i = 0; i < fused_ps.size(); ++i)
        EXPECT_EQ(fused_ps[i].strides(), loop_ps[i].strides()) << "parameter " << i;
    ASSERT_EQ(fused.state().size(), loop.state().size());
    check(loop, loop_ps, fused, fused_ps);
}

// Six steps of `Loop` against two of `Loop`, two of `Fused` and two of
// `Loop` again, the state handed over through checkpoints: how far apart the
// parameters end.
template <typename Loop, typename Fused, typename Options>
double checkpointHandOverDifference(const Options& options) {
    auto reference = makeParameters();
    Loop straight(reference, options);
    train(straight, reference, 0, 6);

    auto ps = cloneParameters(makeParameters());
    Loop first(ps, options);
    train(first, ps, 0, 2);
    Fused second(ps, options);
    moveState(first, second);
    train(second, ps, 2, 4);
    Loop third(ps, options);
    moveState(second, third);
    train(third, ps, 4, 6);
    return maxDifference(reference, ps);
}

// A parameter without a gradient keeps its value and gets no state.
template <typename Fused, typename Options>
void expectSkipsWithoutGradient(const Options& options) {
    auto ps = makeParameters();
    Fused opt(ps, options);
    const auto before = ps[2].detach().clone();
    setGradients(ps, 0);
    ps[2].mutable_grad().reset();
    opt.step();
    EXPECT_TRUE(torch::equal(ps[2], before));
    EXPECT_EQ(opt.state().size(), ps.size() - 1);
}

// What `Fused` throws on a sparse gradient ("" if nothing).
template <typename Fused, typename Options>
std::string sparseGradientError(const Options& options) {
    auto p = torch::zeros({4, 3}).set_requires_grad(true);
    Fused opt({p}, options);
    p.mutable_grad() = torch::eye(4, 3).to_sparse();
    try {
        opt.step();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

} // namespace ts::optimizer_testing
