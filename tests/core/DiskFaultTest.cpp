// A disk that fills while a run writes: the error names the file, the run's
// records stay readable and describe what completed, and no file cut short
// is left under a name a reader would take (a checkpoint, a profile window).
// The fault is injected with the process's file size limit (ulimit -f,
// SIGXFSZ ignored), which fails writes past it with EFBIG as a full disk
// fails them with ENOSPC, for root too and without mounting anything.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "CliRunner.h"
#include "EngineTestSupport.h"
#include "TestPaths.h"
#include "report/RunDirectory.h"

namespace {

namespace fs = std::filesystem;

const std::string kSmall = "run --preset synthetic-smoke --set threads=1 --set val_every=0 "
                           "--no-progress --set synthetic_samples=64 --set image_size=8 "
                           "--set batch_size=8 --set epochs=1";

// The CLI with no file allowed past `kib` KiB.
ts::test::CliResult runWithFileLimit(int kib, const std::string& args) {
    return ts::test::runShell("bash -c \"trap '' XFSZ; ulimit -f " + std::to_string(kib) +
                              "; exec " + TRAINSCOPE_CLI_PATH + " " + args + "\"");
}

void expectNoTemporaries(const fs::path& dir) {
    for (const auto& entry : fs::directory_iterator(dir))
        EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos)
            << entry.path();
}

std::string messagesOf(const fs::path& dir) {
    std::ifstream in(dir / "run.json");
    return nlohmann::json::parse(in)["messages"].dump();
}

} // namespace

// LibTorch's archive writer used to terminate the process from a destructor
// here (rc 134 and a stack of frames).
TEST(DiskFault, ACheckpointThatDoesNotFitFailsTheRunNamingItAndIsNeverNamed) {
    const auto dir = ts::test::freshDir("fault_checkpoint");
    // 20 MiB: the run's records fit, a ResNet-18 checkpoint (85 MiB) does not.
    const auto r = runWithFileLimit(
        20000,
        kSmall + " --set checkpoint_every=1 --set synthetic_samples=32 --out " + dir.string());
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find((dir / "epoch_1.pt").string() +
                            ": cannot write (File too large); the checkpoint was not saved"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("frame #"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir / "epoch_1.pt"));
    EXPECT_FALSE(fs::exists(dir / "final.pt"));
    expectNoTemporaries(dir);
    const auto run = ts::loadRun(dir);
    EXPECT_EQ(run.summary.status, ts::RunStatus::Failed);
    EXPECT_NE(run.summary.error.find("epoch_1.pt: cannot write"), std::string::npos)
        << run.summary.error;
    EXPECT_EQ(run.steps.size(), 4u); // the epoch's steps, measured before the checkpoint
}

TEST(DiskFault, StepsThatNoLongerFitStopTheRunAndTheRowsWrittenStillRead) {
    const auto dir = ts::test::freshDir("fault_steps");
    // 8 KiB: run.json (under 4 KiB) fits, steps.csv fills after some 45 rows of 3 x 20.
    const auto r = runWithFileLimit(
        8, kSmall + " --set synthetic_samples=160 --set epochs=3 --out " + dir.string());
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find((dir / "steps.csv").string() + ": cannot write (File too large)"),
              std::string::npos)
        << r.output;
    expectNoTemporaries(dir);
    const auto run = ts::loadRun(dir);
    EXPECT_EQ(run.summary.status, ts::RunStatus::Failed);
    EXPECT_EQ(fs::file_size(dir / "steps.csv"), 8u * 1024);
    // Whole rows only (the one cut short is not a step), numbered from 0.
    ASSERT_GT(run.steps.size(), 10u);
    EXPECT_LT(run.steps.size(), 60u);
    for (size_t i = 0; i < run.steps.size(); ++i)
        EXPECT_EQ(run.steps[i].global_step, int64_t(i));
}

TEST(DiskFault, AProfileWindowThatDoesNotFitLeavesNoneOfItsFilesAndTheRunGoesOn) {
    const auto dir = ts::test::freshDir("fault_profile");
    // 100 KiB: ops.csv fits, the window's trace.json does not, nor final.pt.
    const auto r = runWithFileLimit(
        100, kSmall + " --set profile.enabled=true --set profile.wait=0 --set profile.warmup=1 " +
                 "--set profile.active=2 --set profile.repeat=1 --out " + dir.string());
    EXPECT_EQ(r.code, 0) << r.output; // training completed; the losses are reported
    expectNoTemporaries(dir);
    for (const char* file : {"ops.csv", "trace.json", "memory.csv", "final.pt"})
        EXPECT_FALSE(fs::exists(dir / file)) << file;
    const auto run = ts::loadRun(dir);
    EXPECT_EQ(run.summary.status, ts::RunStatus::Completed);
    EXPECT_EQ(run.steps.size(), 8u);
    const auto messages = messagesOf(dir);
    // Trainscope's collector fails writing trace.json; Kineto (LibTorch 2.x)
    // already fails saving its own file, and the window is lost there.
    const bool collector =
        messages.find("writing profile outputs failed: " + (dir / "trace.json").string() +
                      ": cannot write (File too large)") != std::string::npos;
    const bool kineto = messages.find("Profiling window 0 (steps 1-2) lost: Kineto could not "
                                      "write its trace") != std::string::npos;
    EXPECT_TRUE(collector || kineto) << messages;
    EXPECT_NE(messages.find("final checkpoint: " + (dir / "final.pt").string() +
                            ": cannot write (File too large)"),
              std::string::npos)
        << messages;
}

// A run directory the user cannot write in is refused before training, named,
// and left as it was. As root (CI) the CLI runs as nobody, since root writes
// anywhere.
TEST(DiskFault, AReadOnlyRunDirectoryIsRefusedAndLeftAsItWas) {
    if (::geteuid() == 0 && ::system("command -v setpriv >/dev/null") != 0)
        GTEST_SKIP() << "running as root without setpriv to drop to nobody";
    const auto dir = ts::test::freshDir("fault_read_only");
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                             fs::perms::group_exec | fs::perms::others_read |
                             fs::perms::others_exec);
    const std::string as_user = ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 "
                                                   "--clear-groups "
                                                 : "";
    const auto r =
        ts::test::runShell(as_user + TRAINSCOPE_CLI_PATH + " " + kSmall + " --out " + dir.string());
    fs::permissions(dir, fs::perms::owner_all);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(dir.string() + ": cannot write in this directory"), std::string::npos)
        << r.output;
    EXPECT_TRUE(fs::is_empty(dir));
}
