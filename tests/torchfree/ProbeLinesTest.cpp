// The probe's lines as Trainscope reads them (scriptrun/ProbeWire.h,
// ProbeRecords.h, ProbeRank.h): cut from a stream in any pieces, checked key
// by key, and turned into the Trainer's observer calls that the run
// directory and the Live view take.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "scriptrun/ProbeRank.h"
#include "scriptrun/ProbeWire.h"
#include "trace/Trace.h"

using namespace ts;
using namespace ts::scriptrun;
namespace fs = std::filesystem;

namespace {

struct Recorder : TrainerObserver {
    void onRunStarted(const RunInfo& info) override { started.push_back(info); }
    void onStep(const StepRecord& s) override { steps.push_back(s); }
    void onEpoch(const EpochRecord& e) override { epochs.push_back(e); }
    void onProfile(const ProfileCapture& c) override { windows.push_back(c.first_step); }
    void onMessage(LogLevel level, const std::string& text) override {
        messages.push_back({level, text});
    }
    std::vector<RunInfo> started;
    std::vector<StepRecord> steps;
    std::vector<EpochRecord> epochs;
    std::vector<int64_t> windows;
    std::vector<std::pair<LogLevel, std::string>> messages;
};

const char* kHello = R"({"t":"hello","v":1,"pid":7,"rank":0,"local_rank":0,"world_size":1,)"
                     R"("python":"3.11.2","torch":"2.15.0","device":"cpu","script":"train.py"})";

std::string step(int n, double ms, int epoch = 0) {
    return R"({"t":"step","rank":0,"step":)" + std::to_string(n) + R"(,"epoch":)" +
           std::to_string(epoch) + R"(,"wall_s":)" + std::to_string(n * ms / 1000) +
           R"(,"step_ms":)" + std::to_string(ms) +
           R"(,"data_ms":1,"forward_ms":2,"backward_ms":3,"optimizer_ms":1,"batch":32,)"
           R"("loss":0.5,"lr":0.1,"rss":1000,"dev_alloc":null,"profiled":false})";
}

struct ProbeRankTest : ::testing::Test {
    Recorder seen;
    fs::path traces = fs::temp_directory_path() / "probe_lines_traces";
    ProbeRank rank{seen,
                   [](const ProbeHello& h) {
                       RunInfo info;
                       info.config.device = h.device;
                       return info;
                   },
                   traces};
    void feed(std::initializer_list<std::string> lines) {
        for (const auto& l : lines)
            rank.onLine(l);
    }
};

} // namespace

TEST(ProbeWire, LinesArriveInAnyPieces) {
    LineSplitter splitter;
    std::vector<std::string> lines;
    auto take = [&](std::string_view l) { lines.emplace_back(l); };
    for (std::string_view piece : {"{\"t\":", "\"a\"}\n{\"t\"", ":\"b\"}\n\n{\"t\":\"c\"}"})
        splitter.feed(piece, take);
    EXPECT_EQ(lines, (std::vector<std::string>{R"({"t":"a"})", R"({"t":"b"})", ""}));
    EXPECT_EQ(splitter.pending(), R"({"t":"c"})");
}

TEST(ProbeWire, AnOverlongLineEndsTheStream) {
    LineSplitter splitter;
    const std::string big(kMaxProbeLineBytes / 2 + 1, 'x');
    splitter.feed(big, [](std::string_view) {});
    EXPECT_THROW(splitter.feed(big, [](std::string_view) {}), ProbeWireError);
}

TEST(ProbeWire, ParsingSaysWhatIsWrong) {
    EXPECT_EQ(parseProbeLine(R"({"t":"step"})").type, ProbeLineType::Step);
    EXPECT_EQ(parseProbeLine(R"({"t":"from-a-newer-probe"})").type, ProbeLineType::Other);
    auto error = [](std::string_view text) {
        try {
            parseProbeLine(text);
        } catch (const ProbeWireError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(error("{\"t\":").find("not JSON"), std::string::npos);
    EXPECT_NE(error("[1,2]").find("not a JSON object"), std::string::npos);
    EXPECT_NE(error(R"({"t":3})").find("\"t\""), std::string::npos);
    EXPECT_NE(error(R"({"step":1e999})").find("not JSON"), std::string::npos);
}

TEST_F(ProbeRankTest, StepsBecomeTheTrainersRecords) {
    feed({kHello, step(0, 10)});
    ASSERT_EQ(seen.started.size(), 1u);
    EXPECT_EQ(seen.started[0].config.device, "cpu");
    EXPECT_TRUE(seen.steps.empty()) << "a step waits for its memory and late lines";
    feed(
        {R"({"t":"memory","rank":0,"step":0,"parameter_bytes":400,"gradient_bytes":400,)"
         R"("optimizer_state_bytes":800,"input_bytes":64,"activation_bytes":0,"temporary_bytes":0})",
         step(1, 20)});
    ASSERT_EQ(seen.steps.size(), 1u);
    const StepRecord& s = seen.steps[0];
    EXPECT_EQ(s.global_step, 0);
    EXPECT_DOUBLE_EQ(s.step_ms, 10);
    EXPECT_DOUBLE_EQ(s.phases.other_ms, 3); // 10 - (1 + 2 + 3 + 1)
    EXPECT_DOUBLE_EQ(s.images_per_sec, 3200);
    EXPECT_EQ(s.memory.optimizer_state_bytes, 800);
    EXPECT_EQ(s.rss_bytes, 1000);
    rank.endOfStream();
    ASSERT_EQ(seen.steps.size(), 2u);
    EXPECT_EQ(seen.steps[1].memory.parameter_bytes, 400) << "the latest categories carry on";
    EXPECT_EQ(rank.steps(), 2);
}

TEST_F(ProbeRankTest, TheRunStartsOnceTheDeviceIsKnown) {
    feed({kHello});
    EXPECT_TRUE(seen.started.empty()) << "the hello does not know the device";
    feed({R"({"t":"device","rank":0,"device":"cuda:0","device_name":"NVIDIA H100"})", "",
          step(0, 10)});
    ASSERT_EQ(seen.started.size(), 1u);
    EXPECT_EQ(seen.started[0].config.device, "cuda:0");
    EXPECT_TRUE(seen.messages.empty()) << "an empty line is skipped quietly";
}

TEST_F(ProbeRankTest, ALateLineFillsTheHeldStepsLoss) {
    feed({kHello,
          R"({"t":"step","step":0,"step_ms":5,"forward_ms":0.5,"backward_ms":0.5,"loss":null})",
          R"({"t":"late","step":0,"loss":2.25,"device_forward_ms":1.5,"device_backward_ms":2,)"
          R"("device_optimizer_ms":null})",
          R"({"t":"bye","steps":1,"status":"ok","exit_code":0})"});
    ASSERT_EQ(seen.steps.size(), 1u);
    EXPECT_DOUBLE_EQ(seen.steps[0].loss, 2.25);
    EXPECT_DOUBLE_EQ(seen.steps[0].phases.forward_ms, 1.5) << "the device's time on CUDA";
    EXPECT_DOUBLE_EQ(seen.steps[0].phases.backward_ms, 2);
    EXPECT_DOUBLE_EQ(seen.steps[0].phases.other_ms, 1.5);
    ASSERT_TRUE(rank.bye());
    EXPECT_EQ(rank.bye()->status, "ok");
}

TEST_F(ProbeRankTest, EpochsCountTheirStepsAndRates) {
    feed({kHello, step(0, 10), step(1, 10),
          R"({"t":"epoch","epoch":0,"steps":2,"epoch_time_s":0.02})", step(2, 10, 1)});
    ASSERT_EQ(seen.epochs.size(), 1u);
    EXPECT_DOUBLE_EQ(seen.epochs[0].images_per_sec, 3200);
    EXPECT_DOUBLE_EQ(seen.epochs[0].train_loss, 0.5);
    rank.endOfStream();
    ASSERT_EQ(seen.steps.size(), 3u);
    EXPECT_EQ(seen.steps[2].epoch, 1);
    EXPECT_EQ(seen.steps[2].step, 0) << "the step within its epoch";
}

TEST_F(ProbeRankTest, BadLinesAreNamedAndSkipped) {
    feed({R"({"t":"step","step":0,"step_ms":5})", kHello, "garbage",
          R"({"t":"step","step":-1,"step_ms":5})", R"({"t":"step","step":1,"step_ms":"slow"})",
          R"({"t":"step","step":2,"step_ms":5,"batch":1e300})", kHello});
    ASSERT_EQ(seen.messages.size(), 5u);
    EXPECT_NE(seen.messages[0].second.find("line 1"), std::string::npos);
    EXPECT_NE(seen.messages[0].second.find("before the probe's hello"), std::string::npos);
    EXPECT_NE(seen.messages[2].second.find("\"step\" is not a count"), std::string::npos);
    EXPECT_NE(seen.messages[3].second.find("\"step_ms\" is not a number"), std::string::npos);
    EXPECT_NE(seen.messages[4].second.find("\"batch\""), std::string::npos);
    EXPECT_EQ(seen.started.size(), 1u) << "a second hello is refused";
    EXPECT_EQ(rank.badLines(), 6);
    rank.endOfStream();
    EXPECT_TRUE(seen.steps.empty());
}

TEST_F(ProbeRankTest, AnotherVersionIsRefused) {
    feed({R"({"t":"hello","v":2})"});
    EXPECT_FALSE(rank.started());
    ASSERT_EQ(seen.messages.size(), 1u);
    EXPECT_NE(seen.messages[0].second.find("version 2"), std::string::npos);
}

TEST_F(ProbeRankTest, TracesAreReadOnlyFromTheirFolder) {
    fs::create_directories(traces);
    const fs::path file = traces / "rank0_cycle0.json";
    std::ofstream(file)
        << R"({"traceEvents":[{"ph":"X","name":"aten::mm","pid":1,"tid":1,"ts":1,"dur":2}]})";
    feed({kHello, R"({"t":"trace","cycle":0,"path":"/dev/zero","first_step":5,"last_step":7})",
          R"({"t":"trace","cycle":0,"path":")" + file.string() +
              R"(","first_step":5,"last_step":7})"});
    ASSERT_EQ(seen.windows, std::vector<int64_t>{5});
    ASSERT_EQ(seen.messages.size(), 1u);
    EXPECT_NE(seen.messages[0].second.find("/dev/zero"), std::string::npos);
    fs::remove_all(traces);
}
