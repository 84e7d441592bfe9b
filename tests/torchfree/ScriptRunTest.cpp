// A user's script run end to end (scriptrun/ScriptRun.h) without torch: a
// stand-in interpreter (tests/data/script_probe/fake_python.sh) plays the
// probe's lines from a scenario file, so the process, the socket, the stop,
// the refusals and the run directory are checked on every machine.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "ProbeLines.h"
#include "TestPaths.h"
#include "report/RunDirectory.h"
#include "scriptrun/ChildProcess.h"
#include "scriptrun/ScriptRun.h"

using namespace ts;
using namespace ts::scriptrun;
using ts::testing::kProbeHello;
using ts::testing::probeSteps;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

struct ScriptRunFixture : ::testing::Test {
    fs::path work = fs::temp_directory_path() /
                    ("script_run_" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    void SetUp() override {
        fs::remove_all(work);
        fs::create_directories(work / "probe" / "trainscope_probe");
        std::ofstream(work / "probe" / "trainscope_probe" / "__main__.py") << "";
        ::setenv("TRAINSCOPE_PROBE_PATH", (work / "probe").c_str(), 1);
    }
    void TearDown() override {
        ::unsetenv("TRAINSCOPE_PROBE_PATH");
        fs::remove_all(work);
    }
    ScriptRunOptions scenario(const std::string& lines) {
        std::ofstream(work / "scenario.txt") << lines;
        ScriptRunOptions o;
        o.python = fs::path(TRAINSCOPE_TEST_DATA_DIR) / "script_probe" / "fake_python.sh";
        o.script = (work / "scenario.txt").string();
        o.out_dir = work / "run";
        return o;
    }
    std::string console;
    ScriptRunResult run(const ScriptRunOptions& o, const CancelFlag* stop = nullptr) {
        ScriptRunHooks hooks;
        hooks.stop = stop;
        hooks.console = [this](ConsoleStream, std::string_view bytes) { console += bytes; };
        return runScript(o, hooks);
    }
};

} // namespace

TEST_F(ScriptRunFixture, AFinishedScriptIsARunDirectoryLikeAnyOther) {
    const auto result = run(scenario(std::string(kProbeHello) + "#stdout epoch 1 done\n" +
                                     probeSteps(4) + "#trace 1 2\n" +
                                     R"({"t":"bye","steps":4,"status":"ok","exit_code":0,)"
                                     R"("overhead_us_per_step":42})"
                                     "\n"));
    EXPECT_EQ(result.status, RunStatus::Completed);
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.steps, 4);
    const RunRecord record = loadRun(result.run_dir);
    EXPECT_EQ(record.summary.status, RunStatus::Completed);
    ASSERT_EQ(record.steps.size(), 4u);
    EXPECT_DOUBLE_EQ(record.steps[3].phases.other_ms, 2);
    EXPECT_EQ(record.info.config.batch_size, 16);
    EXPECT_EQ(record.info.source.python, "/venv/bin/python");
    EXPECT_EQ(record.info.source.torch_version, "2.15.0");
    EXPECT_EQ(record.info.source.exit_status, "ok");
    EXPECT_DOUBLE_EQ(record.info.source.probe_overhead_us_per_step, 42);
    EXPECT_TRUE(record.hasTrace());
    EXPECT_EQ(readFile(result.run_dir / kStdoutLog), "epoch 1 done\n");
    EXPECT_EQ(console, "epoch 1 done\n");
    EXPECT_FALSE(fs::exists(result.run_dir / ".probe-traces")) << "the copies went";
}

TEST_F(ScriptRunFixture, ASlowStepIsMarkedInTheRecords) {
    const auto result = run(scenario(
        std::string(kProbeHello) + probeSteps(3) +
        R"({"t":"slow","step":2,"step_ms":80,"median_ms":20,"upper_ms":24,"trace_steps":3})" +
        "\n"));
    const RunRecord record = loadRun(result.run_dir);
    ASSERT_EQ(record.steps.size(), 3u);
    EXPECT_FALSE(record.steps[1].slow);
    EXPECT_TRUE(record.steps[2].slow) << "steps.csv keeps the mark";
    ASSERT_FALSE(record.summary.status == RunStatus::Failed);
}

TEST_F(ScriptRunFixture, ACrashKeepsItsStepsAndSaysWhy) {
    const auto result = run(scenario(
        std::string(kProbeHello) + probeSteps(2) + "#stderr Traceback (most recent call last):\n" +
        "#stderr ValueError: boom\n" +
        R"({"t":"bye","steps":2,"status":"exception","exit_code":1,"error":"ValueError: boom"})" +
        "\n#exit 1\n"));
    EXPECT_EQ(result.status, RunStatus::Failed);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.error, "ValueError: boom");
    const RunRecord record = loadRun(result.run_dir);
    EXPECT_EQ(record.steps.size(), 2u);
    EXPECT_EQ(record.summary.status, RunStatus::Failed);
    EXPECT_EQ(record.info.source.exit_code, 1);
    EXPECT_NE(readFile(result.run_dir / kStderrLog).find("ValueError: boom"), std::string::npos);
}

TEST_F(ScriptRunFixture, AKilledScriptIsRecordedAsKilled) {
    const auto result =
        run(scenario(std::string(kProbeHello) + probeSteps(1) + "#sleep 0.2\n#kill\n"));
    EXPECT_EQ(result.status, RunStatus::Failed);
    EXPECT_EQ(result.exit_code, 128 + 9);
    EXPECT_NE(result.error.find("killed by signal 9"), std::string::npos) << result.error;
    const RunRecord record = loadRun(result.run_dir);
    EXPECT_EQ(record.steps.size(), 1u);
    EXPECT_EQ(record.info.source.exit_status, "killed");
}

TEST_F(ScriptRunFixture, AProbeThatNeverReportedStillLeavesARun) {
    const auto result =
        run(scenario("#stderr ModuleNotFoundError: No module named 'mylib'\n#exit 1\n"));
    EXPECT_EQ(result.status, RunStatus::Failed);
    const RunRecord record = loadRun(result.run_dir);
    EXPECT_EQ(record.summary.status, RunStatus::Failed);
    EXPECT_NE(record.summary.error.find("No module named 'mylib'"), std::string::npos);
    EXPECT_EQ(record.info.source.exit_status, "lost");
}

TEST_F(ScriptRunFixture, StopInterruptsTheScriptAndKeepsItsSteps) {
    CancelFlag stop;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        stop.request();
    });
    const auto begin = std::chrono::steady_clock::now();
    const auto result =
        run(scenario(std::string(kProbeHello) + "#interruptible\n" + probeSteps(3) + "#sleep 60\n"),
            &stop);
    stopper.join();
    EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(20));
    EXPECT_EQ(result.status, RunStatus::Cancelled);
    EXPECT_EQ(result.exit_code, 130);
    const RunRecord record = loadRun(result.run_dir);
    EXPECT_EQ(record.summary.status, RunStatus::Cancelled);
    EXPECT_EQ(record.steps.size(), 3u);
    EXPECT_EQ(record.info.source.exit_status, "interrupted");
}

TEST_F(ScriptRunFixture, AScriptThatIgnoresStopIsKilledAfterTheGrace) {
    CancelFlag stop;
    auto options =
        scenario(std::string(kProbeHello) + "#ignore-interrupt\n" + probeSteps(2) + "#sleep 60\n");
    options.stop_grace_s = 0.5;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        stop.request();
    });
    const auto begin = std::chrono::steady_clock::now();
    const auto result = run(options, &stop);
    stopper.join();
    EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(20));
    EXPECT_EQ(result.status, RunStatus::Cancelled);
    EXPECT_EQ(result.exit_code, 128 + 9);
    EXPECT_EQ(loadRun(result.run_dir).steps.size(), 2u);
}

TEST_F(ScriptRunFixture, RefusalsNameTheValueAndRecordNothing) {
    auto missing = scenario("");
    missing.script = (work / "nope.py").string();
    EXPECT_THROW(
        try { run(missing); } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("no such script: " + missing.script),
                      std::string::npos);
            throw;
        },
        std::invalid_argument);
    auto no_torch = scenario("");
    no_torch.python = fs::path(TRAINSCOPE_TEST_DATA_DIR) / "script_probe" / "no_torch_python.sh";
    EXPECT_THROW(
        try { run(no_torch); } catch (const InterpreterError& e) {
            EXPECT_NE(std::string(e.what()).find("has no torch"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("the environment your script runs in"),
                      std::string::npos);
            throw;
        },
        InterpreterError);
    auto absent = scenario("");
    absent.python = "/nonexistent/python3";
    EXPECT_THROW(run(absent), InterpreterError);
    EXPECT_FALSE(fs::exists(work / "run")) << "nothing recorded for a refusal";
}

TEST(ChildProcessTest, ExitStatusAndOutput) {
    ChildProcess child({{"/bin/sh", "-c", "echo out; echo err >&2; read x; exit 3"}, {}, "/"});
    std::string out;
    char buffer[64];
    ssize_t got;
    while ((got = ::read(child.stdoutFd(), buffer, sizeof buffer)) > 0)
        out.append(buffer, size_t(got));
    std::optional<int> status;
    while (!(status = child.poll()))
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(out, "out\n");
    EXPECT_EQ(*status, 3) << "standard input is /dev/null: `read` ends at once";
}

TEST(ChildProcessTest, StartFailuresNameTheProgramAndFolder) {
    try {
        ChildProcess child({{"/nonexistent/prog"}, {}, ""});
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/prog: cannot be run"), std::string::npos)
            << e.what();
    }
    try {
        ChildProcess child({{"/bin/true"}, {}, "/nonexistent/folder"});
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/folder"), std::string::npos);
    }
}
