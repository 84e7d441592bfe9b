// readStateDict on the small checked-in fixtures (tests/data/models, made by
// make_fixtures.py) and on broken files. Needs no Python.
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "core/ModelTestSupport.h"
#include "engine/Checkpoint.h"
#include "models/Model.h"
#include "models/TorchScriptModel.h"

namespace ts {
namespace {

std::map<std::string, torch::Tensor> asMap(const StateDict& dict) {
    return std::map<std::string, torch::Tensor>(dict.begin(), dict.end());
}

std::vector<std::string> dictNames(const StateDict& dict) {
    std::vector<std::string> names;
    for (const auto& item : dict)
        names.push_back(item.first);
    return names;
}

// what() of the ModelError readStateDict throws for `path` ("" if none).
std::string readError(const std::filesystem::path& path) {
    try {
        readStateDict(path.string());
    } catch (const ModelError& e) {
        return e.what();
    }
    return "";
}

TEST(ModelStateDict, ReadsEveryDtypeAndStridedViews) {
    const StateDict dict = readStateDict(test::modelFixture("dtypes.pt").string());
    EXPECT_EQ(dictNames(dict),
              (std::vector<std::string>{"f32", "f64", "f16", "bf16", "i64", "i32", "u8", "bool",
                                        "transposed", "base", "view", "scalar", "empty"}));
    auto t = asMap(dict);
    EXPECT_TRUE(t["f32"].equal(torch::arange(6, torch::kFloat).reshape({2, 3}) * 0.5));
    EXPECT_TRUE(t["f64"].equal(torch::arange(4, torch::kDouble) / 4));
    EXPECT_TRUE(t["f16"].equal(torch::arange(4, torch::kHalf) * 0.25));
    EXPECT_TRUE(t["bf16"].equal(torch::arange(4, torch::kBFloat16) * 0.5));
    EXPECT_TRUE(t["i64"].equal(torch::arange(5, torch::kLong) - 2));
    EXPECT_TRUE(t["i32"].equal(torch::arange(3, torch::kInt) * 7));
    EXPECT_TRUE(t["u8"].equal(torch::arange(4, torch::kUInt8) * 60));
    EXPECT_TRUE(t["bool"].equal(torch::tensor({true, false, true})));
    const torch::Tensor expected_t = torch::arange(12, torch::kFloat).reshape({3, 4}).t();
    EXPECT_TRUE(t["transposed"].equal(expected_t));
    EXPECT_EQ(t["transposed"].strides(), expected_t.strides());
    EXPECT_TRUE(t["view"].equal(torch::arange(5, 15, torch::kFloat).reshape({2, 5})));
    EXPECT_TRUE(t["view"].is_alias_of(t["base"])); // one storage, as in the file
    EXPECT_EQ(t["scalar"].dim(), 0);
    EXPECT_EQ(t["scalar"].item<float>(), 3.5f);
    EXPECT_EQ(t["empty"].sizes(), (std::vector<int64_t>{0, 3}));
}

// The two-tensor "head" dict the fixtures nest in several layouts.
void expectHead(const StateDict& dict) {
    ASSERT_EQ(dictNames(dict), (std::vector<std::string>{"fc.weight", "fc.bias"}));
    EXPECT_TRUE(dict[0].second.equal(torch::arange(6, torch::kFloat).reshape({2, 3})));
    EXPECT_TRUE(dict[1].second.equal(torch::tensor({1.0f, 2.0f})));
}

TEST(ModelStateDict, FindsNestedStateDictsAndStripsDataParallelPrefix) {
    SCOPED_TRACE("{'state_dict': {'module.fc.weight': ...}, 'optimizer': ...}, protocol 4");
    expectHead(readStateDict(test::modelFixture("checkpoint_p4.pt").string()));
    SCOPED_TRACE("{'model': {'module.fc.weight': ...}}, protocol 5");
    expectHead(readStateDict(test::modelFixture("model_key_p5.pt").string()));
    SCOPED_TRACE("state_dict(keep_vars=True): nn.Parameter values");
    const StateDict params = readStateDict(test::modelFixture("keep_vars.pt").string());
    EXPECT_EQ(dictNames(params), (std::vector<std::string>{"weight", "bias"}));
    EXPECT_TRUE(params[0].second.equal(torch::arange(6, torch::kFloat).reshape({2, 3})));
}

TEST(ModelStateDict, TorchScriptArchiveYieldsParametersAndBuffers) {
    auto t = asMap(readStateDict(test::modelFixture("tiny_script.pt").string()));
    for (const char* name : {"conv.weight", "bn.weight", "bn.bias", "bn.running_mean",
                             "bn.running_var", "bn.num_batches_tracked", "fc.weight", "fc.bias"})
        EXPECT_EQ(t.count(name), 1u) << name;
    EXPECT_TRUE(t["bn.running_var"].equal(torch::tensor({1.5f, 0.5f, 1.0f, 2.0f})));
    EXPECT_EQ(t["conv.weight"].sizes(), (std::vector<int64_t>{4, 3, 3, 3}));
}

TEST(ModelStateDict, TorchScriptModelMatchesItsPythonOutput) {
    ExperimentConfig config;
    config.model = "torchscript";
    config.model_path = test::modelFixture("tiny_script.pt").string();
    auto model = createModel(config, 3);
    EXPECT_EQ(model->name(), "torchscript:tiny_script.pt");
    EXPECT_EQ(model->namedParameters().size(), 5u);
    EXPECT_EQ(model->namedBuffers().size(), 3u);
    auto io = asMap(readStateDict(test::modelFixture("tiny_script_io.pt").string()));
    model->train(false);
    torch::NoGradGuard no_grad;
    EXPECT_LT((model->forward(io["input"]) - io["output"]).abs().max().item<double>(), 1e-5);
    model->to(torch::kCPU, /*channels_last=*/true);
    EXPECT_TRUE(model->namedParameters()[0].second.is_contiguous(at::MemoryFormat::ChannelsLast));
    EXPECT_LT((model->forward(io["input"]) - io["output"]).abs().max().item<double>(), 1e-5);
}

TEST(ModelStateDict, RejectsLegacyAndNonStateDictFilesWithAdvice) {
    const auto legacy = test::modelFixture("legacy.pt");
    const std::string legacy_error = readError(legacy);
    EXPECT_NE(legacy_error.find(legacy.string()), std::string::npos) << legacy_error;
    EXPECT_NE(legacy_error.find("re-save"), std::string::npos) << legacy_error;
    const std::string module_error = readError(test::modelFixture("whole_module.pt"));
    EXPECT_NE(module_error.find("torch.nn.modules.linear.Linear"), std::string::npos)
        << module_error;
    EXPECT_NE(module_error.find("state_dict()"), std::string::npos) << module_error;
}

// Size 2^62 + 1 with stride 4 over 4 floats: the reach wraps to 0 in int64
// arithmetic. Our check must refuse it in plain words, not leave it to
// LibTorch's as_strided (whose message names its own internals).
TEST(ModelStateDict, AViewWhoseSizeTimesStrideOverflowsIsRefused) {
    const auto path = test::modelFixture("overflowing_view.pt");
    const std::string error = readError(path);
    EXPECT_NE(error.find(path.string()), std::string::npos) << error;
    EXPECT_NE(error.find("overflow 64 bits"), std::string::npos) << error;
    EXPECT_EQ(error.find("Storage size calculation"), std::string::npos) << error;
}

// A TorchScript archive whose data.pkl has four bytes changed (a variant
// WeightsMutationTest found): LibTorch's torch::jit::load, and PyTorch 1.13's
// torch.jit.load, die of SIGSEGV in their unpickler. Our unpickler reads the
// archive's pickles first and refuses it in plain words.
TEST(ModelStateDict, ACorruptTorchScriptPickleIsRefusedNotCrashedOn) {
    const auto path = test::modelFixture("corrupt_script_pickle.pt");
    const std::string error = readError(path);
    EXPECT_NE(error.find(path.string()), std::string::npos) << error;
    EXPECT_NE(error.find("data.pkl"), std::string::npos) << error;
    EXPECT_THROW(loadTorchScript(path.string()), ModelError); // --model FILE goes this way
}

// Another variant: its code fails to compile, and the ErrorReport's what()
// reads a corrupt debug pickle, throws inside noexcept and aborts (so does
// PyTorch 1.13's torch.jit.load). Refused without asking what().
TEST(ModelStateDict, ACorruptTorchScriptDebugPickleIsRefusedNotAbortedOn) {
    const auto path = test::modelFixture("corrupt_script_debug_pickle.pt");
    const std::string error = readError(path);
    EXPECT_NE(error.find(path.string()), std::string::npos) << error;
    // Its code calls a prim:: op no LibTorch has (a mangled name): said so.
    EXPECT_NE(error.find("which is not an op of this LibTorch"), std::string::npos) << error;
    EXPECT_NE(error.find("a corrupt file"), std::string::npos) << error;
    EXPECT_FALSE(isTrainscopeCheckpoint(path)); // evaluate and run --resume ask this first
}

// Code that does not compile because this LibTorch lacks an op, as in a
// module saved by a newer PyTorch: the reason is read from the ErrorReport
// without its what() (compat::errorReportText), and names the op; this one
// is in no release's list (models/OpVersions; TorchScriptFromTorch2Test has
// ops that are).
TEST(ModelStateDict, ATorchScriptModuleFromANewerPyTorchNamesTheOpThisLibTorchLacks) {
    const auto path = test::modelFixture("newer_op_script.pt");
    const std::string error = readError(path);
    EXPECT_NE(error.find(path.string()), std::string::npos) << error;
    EXPECT_NE(error.find("': it uses aten::relu_from_pytorch_9, which LibTorch " TORCH_VERSION
                         " does not have and no PyTorch release up to"),
              std::string::npos)
        << error;
    EXPECT_EQ(error.find("File \"code/"), std::string::npos) << error; // no quoted code
    EXPECT_FALSE(isTrainscopeCheckpoint(path));
}

class ModelStateDictBroken : public ::testing::Test {
protected:
    void SetUp() override { dir_ = test::freshTempDir("model_broken"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // A copy of a fixture with `edit` applied to its bytes.
    std::filesystem::path brokenCopy(const std::string& fixture,
                                     const std::function<void(std::string&)>& edit) {
        std::ifstream in(test::modelFixture(fixture), std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        edit(bytes);
        const auto path = dir_ / ("broken_" + fixture);
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }

    std::filesystem::path dir_;
};

TEST_F(ModelStateDictBroken, TruncatedCorruptEmptyOrMissingFilesAreNamed) {
    std::vector<std::filesystem::path> paths{
        brokenCopy("dtypes.pt", [](std::string& b) { b.resize(b.size() / 2); }),
        brokenCopy("dtypes.pt", [](std::string& b) { b.resize(b.size() - 30); }),
        brokenCopy("tiny_script.pt", [](std::string& b) { b.resize(b.size() - 100); }),
        // data.pkl sits right after the first local header: garble the pickle
        brokenCopy("dtypes.pt", [](std::string& b) { std::fill_n(b.begin() + 80, 200, '\x7f'); }),
        brokenCopy("dtypes.pt", [](std::string& b) { b = "hello, not a weights file"; }),
        brokenCopy("dtypes.pt", [](std::string& b) { b.clear(); }),
        dir_ / "missing.pt",
    };
    for (const auto& path : paths) {
        const std::string error = readError(path);
        EXPECT_NE(error.find(path.string()), std::string::npos)
            << path << " gave: " << (error.empty() ? "no error" : error);
    }
    const std::string garbage = readError(paths[4]);
    EXPECT_NE(garbage.find("torch.jit.save"), std::string::npos) << garbage; // lists formats
}

} // namespace
} // namespace ts
