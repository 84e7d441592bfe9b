// FLOP/byte model: formulas per op, attribution, and a profiled ResNet-18
// against its analytic MAC count.
#include <gtest/gtest.h>

#include <torch/torch.h>

#include "ProfTestSupport.h"
#include "models/Model.h"
#include "models/ModelSummary.h"
#include "profiling/ProfileSession.h"
#include "trace/FlopModel.h"

namespace ts {
namespace {

using test::addEvent;
using test::CaptureObserver;
using test::findEvent;

OpInputs inputs(std::vector<Dims> dims, std::vector<std::string> args) {
    OpInputs in;
    for (const Dims& d : dims)
        in.types.push_back(d.empty() ? "" : "float");
    in.dims = std::move(dims);
    in.args = std::move(args);
    return in;
}

// 2 x N x Cout x Hout x Wout x Cin/groups x kh x kw
double convFlops(double n, double cout, double hout, double wout, double cin, double k) {
    return 2 * n * cout * hout * wout * cin * k * k;
}

TEST(ProfFlopModel, ConvolutionMatchesTheFormula) {
    // mkldnn_convolution(input, weight, bias, padding, stride, dilation, groups)
    const OpCost same = forwardOpCost("aten::mkldnn_convolution",
                                      inputs({{32, 3, 32, 32}, {64, 3, 3, 3}, {}, {}, {}, {}, {}},
                                             {"", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "1"}));
    EXPECT_DOUBLE_EQ(same.flops, convFlops(32, 64, 32, 32, 3, 3));
    EXPECT_EQ(same.family, OpFamily::Convolution);
    EXPECT_DOUBLE_EQ(same.bytes, 4.0 * (32 * 3 * 32 * 32 + 64 * 3 * 3 * 3 + 32 * 64 * 32 * 32));
    // conv2d(input, weight, bias, stride, padding, dilation, groups): 3x3 stride 2 pad 1.
    const OpCost strided =
        forwardOpCost("aten::conv2d", inputs({{8, 64, 56, 56}, {128, 64, 3, 3}, {}, {}, {}, {}, {}},
                                             {"", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "1"}));
    EXPECT_DOUBLE_EQ(strided.flops, convFlops(8, 128, 28, 28, 64, 3));
    // Depthwise: weight [C, 1, k, k] with groups = C.
    const OpCost depthwise = forwardOpCost(
        "aten::convolution", inputs({{1, 32, 10, 10}, {32, 1, 3, 3}, {}, {}, {}, {}, {}, {}, {}},
                                    {"", "", "", "[1]", "[0]", "[1]", "False", "[0]", "32"}));
    EXPECT_DOUBLE_EQ(depthwise.flops, convFlops(1, 32, 8, 8, 1, 3));
    // conv2d.padding with "same".
    const OpCost padded =
        forwardOpCost("aten::conv2d", inputs({{2, 4, 9, 9}, {6, 4, 5, 5}, {}, {}, {}, {}, {}},
                                             {"", "", "", "[1, 1]", "same", "[1, 1]", "1"}));
    EXPECT_DOUBLE_EQ(padded.flops, convFlops(2, 6, 9, 9, 4, 5));
    // Without the non-tensor values the output size is unknown: no guess.
    EXPECT_EQ(forwardOpCost("aten::conv2d", inputs({{2, 4, 9, 9}, {6, 4, 5, 5}}, {})).flops, 0);
}

TEST(ProfFlopModel, ConvolutionBackwardReadsTheOutputFromGradOutput) {
    // convolution_backward(grad_output, input, weight, bias_sizes, ..., output_mask)
    OpInputs in = inputs({{8, 128, 28, 28}, {8, 64, 56, 56}, {128, 64, 3, 3}}, {});
    EXPECT_DOUBLE_EQ(forwardOpCost("aten::convolution_backward", in).flops,
                     2 * convFlops(8, 128, 28, 28, 64, 3));
    in.args = {"",
               "",
               "",
               "",
               "[2, 2]",
               "[1, 1]",
               "[1, 1]",
               "False",
               "[0, 0]",
               "1",
               "[False, True, False]"}; // weight gradient only (the first layer)
    EXPECT_DOUBLE_EQ(forwardOpCost("aten::convolution_backward", in).flops,
                     convFlops(8, 128, 28, 28, 64, 3));
}

TEST(ProfFlopModel, LinearAndMatrixProductsMatchTheFormula) {
    EXPECT_DOUBLE_EQ(forwardOpCost("aten::linear", inputs({{32, 512}, {10, 512}, {10}}, {})).flops,
                     2.0 * 32 * 512 * 10);
    const OpCost addmm = forwardOpCost("aten::addmm", inputs({{10}, {32, 512}, {512, 10}}, {}));
    EXPECT_DOUBLE_EQ(addmm.flops, 2.0 * 32 * 512 * 10);
    EXPECT_DOUBLE_EQ(addmm.bytes, 4.0 * (32 * 512 + 512 * 10 + 32 * 10));
    EXPECT_EQ(addmm.family, OpFamily::MatMul);
    EXPECT_DOUBLE_EQ(forwardOpCost("aten::bmm", inputs({{4, 8, 16}, {4, 16, 2}}, {})).flops,
                     2.0 * 4 * 8 * 16 * 2);
    EXPECT_DOUBLE_EQ(forwardOpCost("aten::matmul", inputs({{3, 7, 5}, {5, 2}}, {})).flops,
                     2.0 * 3 * 7 * 5 * 2);
    EXPECT_EQ(forwardOpCost("aten::mm", inputs({{3, 4}, {5, 6}}, {})).flops, 0); // mismatch
}

TEST(ProfFlopModel, PoolingNormalizationAndElementwise) {
    // max_pool2d(self, kernel_size, stride, padding, dilation, ceil_mode): 3x3/2 pad 1
    const OpCost pool =
        forwardOpCost("aten::max_pool2d_with_indices",
                      inputs({{2, 64, 112, 112}, {}, {}, {}, {}, {}},
                             {"", "[3, 3]", "[2, 2]", "[1, 1]", "[1, 1]", "False"}));
    EXPECT_DOUBLE_EQ(pool.flops, 2.0 * 64 * 56 * 56 * 9);
    EXPECT_DOUBLE_EQ(forwardOpCost("aten::native_batch_norm", inputs({{2, 8, 4, 4}}, {})).flops,
                     5.0 * 256);
    EXPECT_DOUBLE_EQ(forwardOpCost("aten::add", inputs({{4, 8}, {8}}, {})).flops, 32);
    EXPECT_DOUBLE_EQ(forwardOpCost("aten::threshold_backward", inputs({{4, 8}, {4, 8}}, {})).flops,
                     32);
    EXPECT_DOUBLE_EQ(forwardOpCost("aten::mean", inputs({{2, 512, 4, 4}}, {})).flops,
                     2.0 * 512 * 16);
    EXPECT_EQ(forwardOpCost("aten::view", inputs({{4, 8}}, {})).flops, 0);
    EXPECT_EQ(opFamily("aten::relu_"), OpFamily::Elementwise);
    EXPECT_EQ(opFamily("ConvolutionBackward0"), OpFamily::Convolution);
    EXPECT_EQ(opFamily("aten::view"), OpFamily::None);
}

TEST(ProfFlopModel, BackwardNodesAreMultiplesOfTheirForwardOp) {
    const OpCost fwd{100, 40, OpFamily::Convolution};
    EXPECT_DOUBLE_EQ(backwardNodeCost("ConvolutionBackward0", fwd).flops, 200);
    EXPECT_DOUBLE_EQ(backwardNodeCost("AddmmBackward0", fwd).flops, 200);
    EXPECT_DOUBLE_EQ(backwardNodeCost("ReluBackward0", fwd).flops, 100);
    EXPECT_EQ(backwardNodeCost("AddBackward0", fwd).flops, 0);
}

// conv2d > convolution > _convolution > mkldnn_convolution, and a backward
// node whose own op has FLOPs: every computation counted once.
TEST(ProfFlopModel, NestedOpsAndBackwardNodesAreCountedOnce) {
    Trace t;
    const std::string shapes = "[[1, 2, 6, 6], [4, 2, 3, 3], [], [], [], [], []]";
    const std::string types = "[\"float\", \"float\", \"\", \"\", \"\", \"\", \"\"]";
    // conv2d lists stride before padding, mkldnn_convolution padding first.
    const std::string stride_first =
        "[\"\", \"\", \"\", \"[1, 1]\", \"[0, 0]\", \"[1, 1]\", \"1\"]";
    const std::string padding_first =
        "[\"\", \"\", \"\", \"[0, 0]\", \"[1, 1]\", \"[1, 1]\", \"1\"]";
    struct Op {
        const char* name;
        int start, dur, seq;
        const std::string& args;
    };
    for (const Op& op : {Op{"aten::conv2d", 0, 100, 3, stride_first},
                         Op{"aten::convolution", 5, 90, 3, stride_first},
                         Op{"aten::mkldnn_convolution", 10, 80, -1, padding_first}}) {
        const auto i =
            addEvent(t, op.name, EventKind::Operator, op.start, op.dur, 0, op.seq, shapes);
        t.events.edit(size_t(i), [&](TraceEvent& e) {
            e.types = t.internString(types);
            e.args = t.internString(op.args);
        });
    }
    addEvent(t, "ConvolutionBackward0", EventKind::Backward, 200, 50, 0, 3);
    addEvent(t, "ReluBackward0", EventKind::Backward, 300, 50, 0, 9); // no forward op: 0
    t.finalize();
    annotateCosts(t);
    const double expected = convFlops(1, 4, 4, 4, 2, 3);
    EXPECT_EQ(t.events[findEvent(t, "aten::conv2d")].flops, 0);
    EXPECT_EQ(t.events[findEvent(t, "aten::convolution")].flops, 0);
    EXPECT_DOUBLE_EQ(t.events[findEvent(t, "aten::mkldnn_convolution")].flops, expected);
    EXPECT_DOUBLE_EQ(t.events[findEvent(t, "ConvolutionBackward0")].flops, 2 * expected);
    EXPECT_EQ(t.events[findEvent(t, "ReluBackward0")].flops, 0);
    // A node that ran a modeled op leaves the FLOPs to it.
    Trace u = t;
    const auto inner =
        addEvent(u, "aten::mm", EventKind::Operator, 210, 10, 0, -1, "[[2, 3], [3, 4]]");
    u.events.edit(size_t(inner),
                  [&](TraceEvent& e) { e.types = u.internString("[\"float\", \"float\"]"); });
    for (size_t i = 0; i < u.events.size(); ++i)
        u.events.edit(i, [](TraceEvent& e) { e.flops = 0; });
    u.finalize();
    annotateCosts(u);
    EXPECT_EQ(u.events[findEvent(u, "ConvolutionBackward0")].flops, 0);
    EXPECT_DOUBLE_EQ(u.events[findEvent(u, "aten::mm")].flops, 2.0 * 2 * 3 * 4);
}

double familyFlops(const Trace& t, std::initializer_list<OpFamily> families, bool backward) {
    double sum = 0;
    for (size_t i = 0; i < t.events.size(); ++i) {
        const TraceEvent e = t.events[i];
        bool in_backward = false;
        for (auto p = static_cast<int32_t>(i); p >= 0; p = t.events[p].parent)
            in_backward = in_backward || t.events[p].kind == EventKind::Backward;
        const OpFamily f = opFamily(t.nameOf(e));
        if (in_backward == backward &&
            std::find(families.begin(), families.end(), f) != families.end())
            sum += e.flops;
    }
    return sum;
}

TEST(ProfFlopModel, ProfiledConvAndLinearMatchTheFormulas) {
    ProfileSession session(test::profileConfig(0, 1), false, nullptr);
    CaptureObserver observer;
    session.stepBegin(0);
    {
        torch::Tensor x = torch::randn({4, 3, 16, 16}, torch::requires_grad());
        torch::Tensor w = torch::randn({8, 3, 3, 3}, torch::requires_grad());
        torch::Tensor lw = torch::randn({10, 8 * 8 * 8}, torch::requires_grad());
        torch::Tensor y = torch::conv2d(x, w, {}, /*stride=*/2, /*padding=*/1);
        torch::Tensor out = torch::linear(y.flatten(1), lw);
        out.sum().backward();
    }
    session.stepEnd(0, observer);
    session.finish(observer);
    ASSERT_EQ(observer.captures.size(), 1u);
    const Trace& t = observer.captures[0].trace;
    const double conv = convFlops(4, 8, 8, 8, 3, 3), linear = 2.0 * 4 * 512 * 10;
    EXPECT_DOUBLE_EQ(familyFlops(t, {OpFamily::Convolution}, false), conv);
    EXPECT_DOUBLE_EQ(familyFlops(t, {OpFamily::MatMul}, false), linear);
    EXPECT_DOUBLE_EQ(familyFlops(t, {OpFamily::Convolution}, true), 2 * conv);
    EXPECT_DOUBLE_EQ(familyFlops(t, {OpFamily::MatMul}, true), 2 * linear);
}

TEST(ProfFlopModel, ResNet18ForwardFlopsEqualTwiceTheAnalyticMacs) {
    ExperimentConfig config;
    config.model = "resnet18";
    config.stem = "cifar";
    config.num_classes = 10;
    auto model = createModel(config, 3);
    model->train(true);
    const int batch = 2;
    ProfileSession session(test::profileConfig(0, 1), false, nullptr);
    CaptureObserver observer;
    session.stepBegin(0);
    torch::Tensor logits = model->forward(torch::randn({batch, 3, 32, 32}));
    session.stepEnd(0, observer);
    session.finish(observer);
    ASSERT_EQ(observer.captures.size(), 1u);
    const Trace& t = observer.captures[0].trace;
    const double macs = summarizeModel("resnet18", "cifar", 3, 32, 10).total_macs;
    const double measured = familyFlops(t, {OpFamily::Convolution, OpFamily::MatMul}, false);
    EXPECT_NEAR(measured, 2 * macs * batch, 0.01 * 2 * macs * batch);
    EXPECT_DOUBLE_EQ(measured, 2 * macs * batch); // the model is exact for these layers
}

} // namespace
} // namespace ts
