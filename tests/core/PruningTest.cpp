// Pruning: masks prune exactly the asked share (smallest first), per layer,
// globally and by channel; a study on a tiny trained model writes weights that
// load back with the same sparsity, and its report.
#include <cmath>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "EngineTestSupport.h"
#include "engine/Checkpoint.h"
#include "engine/Pruning.h"
#include "engine/Trainer.h"
#include "runners/PruneStudyRun.h"

namespace {

int64_t zeros(const torch::Tensor& t) {
    return t.eq(0).sum().item<int64_t>();
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(Pruning, UnstructuredMaskPrunesExactlyTheSmallest) {
    torch::manual_seed(1);
    const auto w = torch::randn({10, 7, 3, 3}); // 630 weights
    const auto mask = ts::l1UnstructuredMask(w, 0.3);
    EXPECT_EQ(mask.sizes(), w.sizes());
    EXPECT_EQ(zeros(mask), 189); // round(0.3 * 630)
    const auto magnitude = w.abs();
    const double largest_pruned = magnitude.masked_select(mask.eq(0)).max().item<double>();
    const double smallest_kept = magnitude.masked_select(mask.eq(1)).min().item<double>();
    EXPECT_LE(largest_pruned, smallest_kept);
    EXPECT_EQ(zeros(ts::l1UnstructuredMask(torch::ones({10}), 0.55)), 6) << "ties still exact";
    EXPECT_EQ(zeros(ts::l1UnstructuredMask(w, 0.0)), 0);
    EXPECT_EQ(zeros(ts::l1UnstructuredMask(w, 1.0)), 630);
}

TEST(Pruning, GlobalMaskRanksAllLayersTogether) {
    torch::manual_seed(2);
    const auto small = torch::randn({100}) * 0.01, large = torch::randn({300});
    const auto masks = ts::globalL1Masks({small, large}, 0.25);
    ASSERT_EQ(masks.size(), 2u);
    EXPECT_EQ(zeros(masks[0]) + zeros(masks[1]), 100);
    EXPECT_GT(zeros(masks[0]), 90) << "the small-magnitude layer takes most of the pruning";
}

TEST(Pruning, ChannelMaskZeroesWholeChannelsWithTheSmallestNorm) {
    auto w = torch::ones({8, 2, 3, 3});
    for (int c = 0; c < 8; ++c)
        w[c].mul_(double(c + 1)); // channel c has norm ~ c + 1
    w[5].mul_(0.01);              // now the smallest
    const auto l1 = ts::channelMask(w, 0.25, 1);
    EXPECT_EQ(zeros(l1), 2 * 18);
    EXPECT_EQ(zeros(l1[5]), 18);
    EXPECT_EQ(zeros(l1[0]), 18);
    EXPECT_EQ(zeros(l1[1]), 0);
    EXPECT_TRUE(ts::channelMask(w, 0.25, 2).equal(l1));
    EXPECT_EQ(ts::countZeroChannels(w * l1), 2);
}

TEST(Pruning, ModelLayersGetExactSparsityAndTheHeadIsLeftAlone) {
    auto config = ts::test::tinyConfig();
    auto model = ts::createModel(config, 3);
    ts::PruneOptions options;
    options.amount = 0.3;
    const auto layers = ts::pruneModel(*model, options);
    ASSERT_EQ(layers.size(), 20u); // resnet18: 17 convs + 3 downsample convs
    for (const auto& l : layers) {
        EXPECT_EQ(l.shape.size(), 4u) << l.name;
        EXPECT_EQ(l.zeros_after, std::llround(0.3 * double(l.params))) << l.name;
    }
    for (auto& [name, t] : model->namedParameters()) {
        if (name == "fc.weight") {
            EXPECT_EQ(zeros(t), 0);
        }
    }

    auto structured_model = ts::createModel(config, 3);
    options.structured = true;
    options.include_linear = true;
    const auto channels = ts::pruneModel(*structured_model, options);
    ASSERT_EQ(channels.size(), 21u);
    for (const auto& l : channels)
        EXPECT_EQ(l.channels_zeroed, std::llround(0.3 * double(l.channels))) << l.name;
}

TEST(Pruning, BadOptionsAreNamed) {
    ts::PruneOptions o;
    o.amount = 1.5;
    EXPECT_THROW(ts::checkPruneOptions(o), std::invalid_argument);
    o.amount = 0.5;
    o.structured = o.global = true;
    try {
        ts::checkPruneOptions(o);
        ADD_FAILURE();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("--global"), std::string::npos);
    }
}

TEST(Pruning, StudyWritesLoadableWeightsAndAReport) {
    const auto dir = ts::test::freshDir("prune_study");
    auto config = ts::test::tinyConfig();
    config.synthetic_samples = 32;
    config.max_steps = 2;
    config.val_max_steps = 1;
    {
        ts::test::RecordingObserver observer;
        ts::Trainer trainer(config, observer);
        trainer.setCheckpointDir((dir / "train").string());
        std::filesystem::create_directories(dir / "train");
        ASSERT_EQ(trainer.run().status, ts::RunStatus::Completed);
    }
    ts::PruneStudyOptions options;
    options.config = config;
    options.weights = (dir / "train" / "final.pt").string();
    options.prune.amount = 0.5;
    options.prune.global = true;
    options.latency_runs = 2;
    options.latency_warmup = 1;
    options.eval_batches = 1;
    const auto result = ts::runPruneStudy(options, dir / "pruned");
    ts::writePruneReport(result, dir / "pruned");
    EXPECT_NEAR(double(result.zerosAfter()) / double(result.params()), 0.5, 1e-6);
    EXPECT_EQ(result.after.samples, 8);
    EXPECT_GT(result.latency_before_ms, 0);
    EXPECT_FALSE(result.verdict.empty());

    // The pruned checkpoint loads as `pretrained` and keeps the zeros.
    const auto weights = ts::readCheckpointWeights(result.pruned_weights);
    int64_t conv_params = 0, conv_zeros = 0;
    for (const auto& [name, t] : weights)
        if (t.dim() == 4) conv_params += t.numel(), conv_zeros += zeros(t);
    EXPECT_EQ(conv_params, result.params());
    EXPECT_EQ(conv_zeros, result.zerosAfter());
    auto fresh = ts::createModel(config, 3);
    EXPECT_NO_THROW(ts::loadPretrained(*fresh, weights, result.pruned_weights.string()));

    const std::string md = readFile(dir / "pruned" / ts::prune_files::kMarkdown);
    EXPECT_NE(md.find(result.verdict), std::string::npos);
    EXPECT_NE(md.find("global"), std::string::npos);
    EXPECT_NE(readFile(dir / "pruned" / ts::prune_files::kLayersCsv).find("layer1.0.conv1.weight"),
              std::string::npos);
    EXPECT_NE(readFile(dir / "pruned" / ts::prune_files::kJson).find("\"accuracy_after\""),
              std::string::npos);
}
