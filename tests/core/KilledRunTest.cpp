// A run SIGKILLed at any moment: whatever it left is valid (run.json parses
// and describes what completed, steps.csv reads) and holds no temporary
// file, and a run with a checkpoint resumes from its directory to the end.
// Kills at many moments (spread and jittered, printed for reproduction).
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "CliRunner.h"
#include "EngineTestSupport.h"
#include "report/RunDirectory.h"
#include "report/StepsCsv.h"

namespace {

namespace fs = std::filesystem;

// Six short epochs (about a second each on a 2-core VM), a checkpoint after each.
const std::string kRun =
    "run --preset synthetic-smoke --set synthetic_samples=64 --set image_size=16 "
    "--set batch_size=16 --set epochs=6 --set checkpoint_every=1 --set val_max_steps=1 "
    "--set threads=1 --no-progress";

void killAfter(const fs::path& dir, double seconds) {
    ts::test::runShell("sh -c '" + std::string(TRAINSCOPE_CLI_PATH) + " " + kRun + " --out " +
                       dir.string() + " >/dev/null 2>&1 & pid=$!; sleep " +
                       std::to_string(seconds) + "; kill -9 $pid; wait $pid; true'");
}

} // namespace

TEST(KilledRun, LeavesValidRecordsAndNoTemporariesAtAnyMomentAndResumes) {
    std::mt19937 random(20261123);
    std::uniform_real_distribution<double> jitter(0.0, 0.25);
    int with_run_json = 0, resumed = 0;
    for (int i = 0; i < 8; ++i) {
        const double at = 0.2 + 0.8 * i + jitter(random); // 0.2 s .. ~6 s
        SCOPED_TRACE("killed after " + std::to_string(at) + " s");
        const auto dir = ts::test::freshDir("killed_" + std::to_string(i));
        fs::remove(dir);
        killAfter(dir, at);
        if (!fs::exists(dir)) continue; // killed before it made its directory
        for (const auto& entry : fs::directory_iterator(dir))
            EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos)
                << entry.path();
        if (!fs::exists(dir / "run.json")) {
            // Killed while loading: nothing that looks like a run.
            EXPECT_FALSE(fs::exists(dir / "steps.csv"));
            continue;
        }
        ++with_run_json;
        ts::RunRecord record;
        ASSERT_NO_THROW(record = ts::loadRun(dir)) << "run.json or steps.csv unreadable";
        // Killed mid-run it says running; a fast machine may have finished first.
        const bool finished = record.summary.status == ts::RunStatus::Completed;
        EXPECT_TRUE(finished || record.summary.status == ts::RunStatus::Running);
        EXPECT_LE(record.epochs.size(), record.steps.size());
        if (finished || !fs::exists(dir / "epoch_1.pt") || resumed == 3) continue;
        // Resumed from its directory, it ends where an uninterrupted run ends.
        const auto rest = ts::test::freshDir("killed_rest_" + std::to_string(i));
        const auto r =
            ts::test::runCli(kRun + " --set resume=" + dir.string() + " --out " + rest.string());
        ASSERT_EQ(r.code, 0) << r.output;
        const auto done = ts::loadRun(rest, false);
        EXPECT_EQ(done.summary.status, ts::RunStatus::Completed);
        EXPECT_EQ(done.summary.epochs_completed + done.info.start_epoch, 6);
        ++resumed;
    }
    // The moments span loading, training and checkpointing.
    EXPECT_GE(with_run_json, 3);
    EXPECT_GE(resumed, 2);
}
