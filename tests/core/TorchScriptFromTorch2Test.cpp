// TorchScript modules scripted and saved by PyTorch 2.15
// (tests/data/models/make_torch2_models.py): on LibTorch 2.x the transformer
// block loads and trains; on 1.13 every module that calls what 1.13 lacks is
// refused, naming the op or argument and the release that added it (#49).
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <torch/version.h>

#include "CliRunner.h"
#include "EngineTestSupport.h"
#include "ModelTestSupport.h"
#include "models/Model.h"
#include "models/TorchScriptModel.h"
#include "report/StepsCsv.h"

namespace ts {
namespace {

constexpr bool kTorch2 = TORCH_VERSION_MAJOR >= 2;

// what() of the ModelError loading `fixture` throws ("" if it loads).
std::string loadError(const std::string& fixture) {
    try {
        TorchScriptModel model(test::modelFixture(fixture).string());
    } catch (const ModelError& e) {
        return e.what();
    }
    return "";
}

std::string blockRun(const std::string& extra) {
    return "run --preset synthetic-smoke --set threads=1 --no-progress --set model=torchscript "
           "--set model_path=" +
           test::modelFixture("torch2_transformer_block.pt").string() + " " + extra;
}

void expectNoInternals(const std::string& output) {
    for (const char* internal :
         {"frame #", "Exception raised from", "terminate called", "Aborted", "File \"code/"})
        EXPECT_EQ(output.find(internal), std::string::npos) << output;
}

TEST(TorchScriptFromTorch2, OnLibTorch1TheTransformerBlockIsRefusedNamingTheOpAndRelease) {
    if (kTorch2) GTEST_SKIP() << "LibTorch " TORCH_VERSION " has scaled_dot_product_attention";
    const std::string error = loadError("torch2_transformer_block.pt");
    EXPECT_NE(error.find("torch2_transformer_block.pt': it uses "
                         "aten::scaled_dot_product_attention, which PyTorch 2.0 added; this "
                         "Trainscope is built on LibTorch " TORCH_VERSION
                         ". Build Trainscope on LibTorch 2.0 or later (scripts/torch2.sh)"),
              std::string::npos)
        << error;
    expectNoInternals(error);
}

TEST(TorchScriptFromTorch2, OnLibTorch1TheCliRefusesTheBlockWithExit2AndNoStackFrames) {
    if (kTorch2) GTEST_SKIP() << "LibTorch " TORCH_VERSION " has scaled_dot_product_attention";
    const auto dir = test::freshDir("torch2_block_refused");
    const auto r = test::runCli(blockRun("--out " + (dir / "run").string()));
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("aten::scaled_dot_product_attention, which PyTorch 2.0 added"),
              std::string::npos)
        << r.output;
    expectNoInternals(r.output);
}

TEST(TorchScriptFromTorch2, OnLibTorch1EachWayACallFailsNamesWhatIsMissing) {
    if (kTorch2) GTEST_SKIP() << "LibTorch " TORCH_VERSION " has these ops and arguments";
    const std::string rms = loadError("torch2_rms_norm.pt");
    EXPECT_NE(rms.find("it uses aten::rms_norm, which PyTorch 2.4 added"), std::string::npos)
        << rms;
    const std::string sparse = loadError("torch2_to_sparse_layout.pt");
    EXPECT_NE(sparse.find("it calls aten::to_sparse with arguments LibTorch " TORCH_VERSION
                          "'s aten::to_sparse does not take (Keyword argument layout unknown.); "
                          "PyTorch 2.0 added its argument layout."),
              std::string::npos)
        << sparse;
    const std::string pad = loadError("torch2_pad_sequence_left.pt");
    EXPECT_NE(pad.find("it calls aten::pad_sequence with arguments"), std::string::npos) << pad;
    EXPECT_NE(pad.find("(Expected at most 3 arguments but found 4 positional arguments.); "
                       "PyTorch 2.5 added its argument padding_side."),
              std::string::npos)
        << pad;
    for (const auto& error : {rms, sparse, pad})
        expectNoInternals(error);
}

// An op outside ATen is in no LibTorch: refused on every build, saying so.
TEST(TorchScriptFromTorch2, AnOpOutsideATenIsNotAnOpOfThisLibTorch) {
    const std::string error = loadError("torch2_custom_op.pt");
    EXPECT_NE(error.find("it uses trainscope_test::twice, which is not an op of this LibTorch "
                         "(" TORCH_VERSION ")"),
              std::string::npos)
        << error;
    expectNoInternals(error);
}

TEST(TorchScriptFromTorch2, OnLibTorch2TheOpModulesLoad) {
    if (!kTorch2) GTEST_SKIP() << "LibTorch " TORCH_VERSION " lacks their ops";
    for (const char* fixture :
         {"torch2_rms_norm.pt", "torch2_to_sparse_layout.pt", "torch2_pad_sequence_left.pt"})
        EXPECT_EQ(loadError(fixture), "") << fixture;
}

TEST(TorchScriptFromTorch2, OnLibTorch2TheTransformerBlockTrainsThroughTheCli) {
    if (!kTorch2) GTEST_SKIP() << "LibTorch " TORCH_VERSION " lacks scaled_dot_product_attention";
    const auto dir = test::freshDir("torch2_block_trains");
    const auto r = test::runCli(blockRun(
        "--set max_steps=3 --set val_every=0 --set synthetic_samples=96 --out " + dir.string()));
    ASSERT_EQ(r.code, 0) << r.output;
    const auto steps = readStepsCsv(dir / "steps.csv");
    ASSERT_EQ(steps.size(), 3u);
    for (const auto& step : steps)
        EXPECT_TRUE(std::isfinite(step.loss)) << step.loss;
    EXPECT_NE(steps.front().loss, steps.back().loss); // the weights moved
}

} // namespace
} // namespace ts
