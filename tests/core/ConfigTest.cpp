#include <chrono>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "config/ConfigError.h"
#include "config/ConfigJson.h"
#include "config/Presets.h"
#include "config/ResumeCheckpoint.h"
#include "env/ValidateConfig.h"

using namespace ts;
using nlohmann::json;

namespace {

// The message of the ConfigError `fn` throws ("" when none).
template <typename Fn> std::string configErrorOf(Fn fn) {
    try {
        fn();
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

bool hasIssue(const ExperimentConfig& c, const std::string& key) {
    for (const auto& issue : validateConfig(c))
        if (issue.key == key) return true;
    return false;
}

} // namespace

TEST(Config, JsonRoundTripKeepsEveryKey) {
    ExperimentConfig c;
    c.name = "round trip";
    c.model = "resnet50";
    c.stem = "imagenet";
    c.num_classes = 100;
    c.dataset = "cifar100";
    c.batch_size = 17;
    c.lr = 0.123;
    c.seed = 987654321ULL;
    c.channels_last = true;
    c.retain_host_memory = false;
    c.profile.enabled = true;
    c.profile.active = 7;
    c.profile.one_step_after = 20;
    const json first = configToJson(c);
    const ExperimentConfig back = configFromJson(first, "test");
    EXPECT_EQ(configToJson(back), first);
    EXPECT_EQ(back.seed, 987654321ULL);
    EXPECT_EQ(back.profile.one_step_after, 20);
    // Every declared key is written.
    for (const auto& key : configKeys()) {
        const auto dot = key.find('.');
        if (dot == std::string::npos)
            EXPECT_TRUE(first.contains(key)) << key;
        else
            EXPECT_TRUE(first[key.substr(0, dot)].contains(key.substr(dot + 1))) << key;
    }
}

TEST(Config, FileRoundTrip) {
    const auto path = std::filesystem::path(::testing::TempDir()) / "config_round_trip.json";
    ExperimentConfig c;
    c.epochs = 3;
    saveConfigFile(c, path);
    EXPECT_EQ(configToJson(loadConfigFile(path)), configToJson(c));
}

TEST(Config, UnknownKeyIsNamed) {
    const auto message = configErrorOf([] { configFromJson(json{{"batchsize", 32}}, "my.json"); });
    EXPECT_NE(message.find("my.json"), std::string::npos) << message;
    EXPECT_NE(message.find("batchsize"), std::string::npos) << message;
    EXPECT_NE(message.find("unknown key"), std::string::npos) << message;
    const auto nested = configErrorOf([] {
        configFromJson(json{{"profile", {{"actve", 3}}}}, "x");
    });
    EXPECT_NE(nested.find("profile.actve"), std::string::npos) << nested;
}

TEST(Config, WrongTypesAreNamed) {
    struct Case {
        json value;
        const char* key;
        const char* expected;
    };
    const std::vector<Case> cases = {
        {json{{"batch_size", "64"}}, "batch_size", "an integer"},
        {json{{"batch_size", 6.5}}, "batch_size", "an integer"},
        {json{{"lr", "fast"}}, "lr", "a number"},
        {json{{"channels_last", 1}}, "channels_last", "true or false"},
        {json{{"retain_host_memory", "yes"}}, "retain_host_memory", "true or false"},
        {json{{"model", 18}}, "model", "a string"},
        {json{{"seed", -1}}, "seed", "a non-negative integer"},
        {json{{"profile", 3}}, "profile", "an object"},
        {json{{"epochs", 1e12}}, "epochs", "an integer"},
    };
    for (const auto& c : cases) {
        const auto message = configErrorOf([&] { configFromJson(c.value, "cfg"); });
        EXPECT_NE(message.find(c.key), std::string::npos) << message;
        EXPECT_NE(message.find(c.expected), std::string::npos) << message;
    }
    EXPECT_NE(configErrorOf([] { configFromJson(json::array(), "cfg"); }).find("JSON object"),
              std::string::npos);
}

TEST(Config, InvalidJsonFileNamesFile) {
    const auto path = std::filesystem::path(::testing::TempDir()) / "broken_config.json";
    std::ofstream(path) << "{\"model\": ";
    const auto message = configErrorOf([&] { loadConfigFile(path); });
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("not valid JSON"), std::string::npos) << message;
    EXPECT_NE(configErrorOf([] { loadConfigFile("/nonexistent/cfg.json"); }).find("cannot open"),
              std::string::npos);
}

TEST(Config, DefaultsAreValid) {
    EXPECT_TRUE(validateConfig(ExperimentConfig{}).empty());
}

TEST(Config, EveryValidationRuleNamesItsKey) {
    struct Rule {
        const char* key;
        std::function<void(ExperimentConfig&)> breakIt;
    };
    const std::vector<Rule> rules = {
        {"model", [](auto& c) { c.model = "resnet19"; }},
        {"stem", [](auto& c) { c.stem = "tiny"; }},
        {"dataset", [](auto& c) { c.dataset = "mnist"; }},
        {"precision", [](auto& c) { c.precision = "fp8"; }},
        {"optimizer", [](auto& c) { c.optimizer = "lamb"; }},
        {"schedule", [](auto& c) { c.schedule = "linear"; }},
        {"device", [](auto& c) { c.device = "tpu"; }},
        {"num_classes", [](auto& c) { c.num_classes = 1; }},
        {"num_classes",
         [](auto& c) {
             c.dataset = "cifar100";
             c.num_classes = 10;
         }},
        {"batch_size", [](auto& c) { c.batch_size = 0; }},
        {"epochs", [](auto& c) { c.epochs = 0; }},
        {"max_steps", [](auto& c) { c.max_steps = -1; }},
        {"val_max_steps", [](auto& c) { c.val_max_steps = -2; }},
        {"lr", [](auto& c) { c.lr = 0; }},
        {"momentum", [](auto& c) { c.momentum = 1.5; }},
        {"weight_decay", [](auto& c) { c.weight_decay = -1; }},
        {"warmup_steps", [](auto& c) { c.warmup_steps = -1; }},
        {"lr_step_epochs", [](auto& c) { c.lr_step_epochs = 0; }},
        {"lr_gamma", [](auto& c) { c.lr_gamma = 2; }},
        {"label_smoothing", [](auto& c) { c.label_smoothing = 1; }},
        {"workers", [](auto& c) { c.workers = -1; }},
        {"prefetch", [](auto& c) { c.prefetch = 0; }},
        {"threads", [](auto& c) { c.threads = -3; }},
        {"val_every", [](auto& c) { c.val_every = -1; }},
        {"checkpoint_every", [](auto& c) { c.checkpoint_every = -1; }},
        {"warmup_steps_excluded", [](auto& c) { c.warmup_steps_excluded = -1; }},
        {"image_size", [](auto& c) { c.image_size = 4; }},
        {"synthetic_samples", [](auto& c) { c.synthetic_samples = 0; }},
        {"synthetic_channels", [](auto& c) { c.synthetic_channels = 5; }},
        {"pin_memory", [](auto& c) { c.pin_memory = true; }},
        {"model_path", [](auto& c) { c.model = "torchscript"; }},
        {"model_path", [](auto& c) { c.model_path = "/nonexistent/model.pt"; }},
        {"pretrained", [](auto& c) { c.pretrained = "/nonexistent/weights.pth"; }},
        {"resume", [](auto& c) { c.resume = "/nonexistent/final.pt"; }},
        {"data_dir", [](auto& c) { c.data_dir = "/nonexistent/dir"; }},
        {"precision", [](auto& c) { c.precision = "fp16"; }}, // no CUDA here
        {"profile.active", [](auto& c) { c.profile.active = 0; }},
        {"profile.wait", [](auto& c) { c.profile.wait = -1; }},
        {"profile.warmup", [](auto& c) { c.profile.warmup = -1; }},
        {"profile.skip_first", [](auto& c) { c.profile.skip_first = -1; }},
        {"profile.repeat", [](auto& c) { c.profile.repeat = -1; }},
        {"profile.one_step_after", [](auto& c) { c.profile.one_step_after = -5; }},
        {"profile.max_trace_events", [](auto& c) { c.profile.max_trace_events = 10; }},
    };
    for (const auto& rule : rules) {
        ExperimentConfig c;
        rule.breakIt(c);
        if (std::string(rule.key) == "precision" && c.precision == "fp16" &&
            c.device.rfind("cuda", 0) != 0) {
            EXPECT_TRUE(hasIssue(c, "precision"));
            continue;
        }
        EXPECT_TRUE(hasIssue(c, rule.key)) << "rule for " << rule.key << " did not fire";
    }
}

TEST(Config, CudaDeviceWithoutCudaIsExplained) {
    ExperimentConfig c;
    c.device = "cuda";
    const auto issues = validateConfig(c);
    if (issues.empty()) GTEST_SKIP() << "a CUDA device is present";
    EXPECT_EQ(issues.front().key, "device");
    EXPECT_NE(issues.front().message.find("CUDA"), std::string::npos);
}

TEST(Config, OverridesParseTypesAndNameBadKeys) {
    ExperimentConfig c;
    applyOverride(c, "batch_size=128");
    applyOverride(c, "model=resnet34");
    applyOverride(c, "channels_last=true");
    applyOverride(c, "profile.active=9");
    applyOverride(c, "name=2024");
    EXPECT_EQ(c.batch_size, 128);
    EXPECT_EQ(c.model, "resnet34");
    EXPECT_TRUE(c.channels_last);
    EXPECT_EQ(c.profile.active, 9);
    EXPECT_EQ(c.name, "2024");
    EXPECT_NE(configErrorOf([&] { applyOverride(c, "batch=3"); }).find("batch"), std::string::npos);
    EXPECT_NE(configErrorOf([&] { applyOverride(c, "batch_size=big"); }).find("batch_size"),
              std::string::npos);
    EXPECT_NE(configErrorOf([&] { applyOverride(c, "novalue"); }).find("key=value"),
              std::string::npos);
}

TEST(Config, AllPresetsLoadAndCpuOnesValidate) {
    const auto presets = listPresets();
    ASSERT_GE(presets.size(), 10u);
    bool quickstart = false;
    for (const auto& p : presets) {
        const auto c = loadPreset(p.name);
        quickstart |= p.name == "quickstart";
        EXPECT_FALSE(p.description.empty()) << p.name;
        EXPECT_EQ(p.needs_cuda, c.device.rfind("cuda", 0) == 0) << p.name;
        if (!p.needs_cuda && c.dataset != "cifar10" && c.dataset != "cifar100") {
            EXPECT_TRUE(validateConfig(c).empty()) << p.name;
        }
    }
    EXPECT_TRUE(quickstart);
    const auto quick = loadPreset("quickstart");
    EXPECT_EQ(quick.model, "resnet18");
    EXPECT_EQ(quick.dataset, "fashion-mnist");
    EXPECT_EQ(quick.device, "cpu");
    EXPECT_NE(configErrorOf([] { loadPreset("nope"); }).find("quickstart"), std::string::npos);
}

// `resume` names a checkpoint or a run directory: the directory stands for
// the checkpoint written last (ties: final.pt, then the later epoch, then
// best.pt); unfinished writes and other files never count.
TEST(Config, ResumeFromARunDirectoryTakesItsNewestCheckpoint) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "trainscope_resume_dir";
    fs::remove_all(dir);
    fs::create_directories(dir);
    EXPECT_FALSE(ts::latestCheckpointIn(dir));
    const auto write = [&](const char* name, int seconds_ago) {
        std::ofstream(dir / name) << "x";
        fs::last_write_time(dir / name,
                            fs::file_time_type::clock::now() - std::chrono::seconds(seconds_ago));
    };
    write("best.pt", 50);
    write("epoch_1.pt", 40);
    write("epoch_2.pt", 30);
    write("epoch_10.pt.tmp-123", 1); // an interrupted write
    write("notes.pt", 1);
    write("epoch_x.pt", 1);
    EXPECT_EQ(ts::resumeCheckpoint(dir.string()), dir / "epoch_2.pt");
    write("final.pt", 20);
    EXPECT_EQ(ts::resumeCheckpoint(dir.string()), dir / "final.pt");
    write("epoch_3.pt", 10); // a later run resumed into the same directory
    EXPECT_EQ(ts::resumeCheckpoint(dir.string()), dir / "epoch_3.pt");
    const auto same = fs::last_write_time(dir / "epoch_3.pt");
    fs::last_write_time(dir / "final.pt", same);
    fs::last_write_time(dir / "best.pt", same);
    EXPECT_EQ(ts::resumeCheckpoint(dir.string()), dir / "final.pt");
    EXPECT_EQ(ts::resumeCheckpoint((dir / "epoch_1.pt").string()), dir / "epoch_1.pt");

    ts::ExperimentConfig c;
    c.resume = dir.string();
    EXPECT_TRUE(ts::validateConfig(c).empty());
    const fs::path empty = dir / "empty";
    fs::create_directories(empty);
    c.resume = empty.string();
    const auto issues = ts::validateConfig(c);
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].key, "resume");
    EXPECT_NE(issues[0].message.find("holds no checkpoint"), std::string::npos);
    c.resume = (dir / "missing").string();
    EXPECT_NE(ts::validateConfig(c).at(0).message.find("no such checkpoint file or run directory"),
              std::string::npos);
}
