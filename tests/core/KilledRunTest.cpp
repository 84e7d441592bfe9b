// A run SIGKILLed at any moment: whatever it left is valid (run.json parses
// and describes what completed, steps.csv reads) and holds no temporary
// file, and a run with a checkpoint resumed in its directory ends with the records
// of an uninterrupted run.
// Kills at many moments (spread and jittered, printed for reproduction).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "CliRunner.h"
#include "EngineTestSupport.h"
#include "TestPaths.h"
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

// What a run records, by name: run.json's members and its summary's, and the
// steps' and epochs' counts and numbering.
struct Shape {
    std::set<std::string> members, summary;
    size_t steps = 0, epochs = 0;
    bool numbered = true; // steps 0, 1, 2, ... and epochs 0, 1, 2, ...
};

Shape shapeOf(const fs::path& dir) {
    Shape shape;
    std::ifstream in(dir / "run.json");
    const auto j = nlohmann::json::parse(in);
    for (const auto& [key, value] : j.items())
        if (key != "resumed") shape.members.insert(key);
    for (const auto& [key, value] : j["summary"].items())
        shape.summary.insert(key);
    const auto record = ts::loadRun(dir);
    shape.steps = record.steps.size();
    shape.epochs = record.epochs.size();
    for (size_t i = 0; i < record.steps.size(); ++i)
        shape.numbered = shape.numbered && record.steps[i].global_step == int64_t(i);
    for (size_t i = 0; i < record.epochs.size(); ++i)
        shape.numbered = shape.numbered && record.epochs[i].epoch == int(i);
    return shape;
}

} // namespace

TEST(KilledRun, LeavesValidRecordsAndNoTemporariesAtAnyMomentAndResumesInPlace) {
    const auto whole = ts::test::freshDir("killed_whole");
    const auto began = std::chrono::steady_clock::now();
    ASSERT_EQ(ts::test::runCli(kRun + " --out " + whole.string()).code, 0);
    // The kills are spread over the time this run took here, so that they
    // fall into loading, training and checkpointing on a slow or busy machine
    // too (a fixed 0.2-6 s killed every run before its first checkpoint on a
    // loaded 2-core VM).
    const double whole_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    const Shape uninterrupted = shapeOf(whole);
    ASSERT_EQ(uninterrupted.epochs, 6u);
    ASSERT_TRUE(uninterrupted.numbered);

    std::mt19937 random(20261123);
    std::uniform_real_distribution<double> jitter(0.0, 1.0);
    int with_run_json = 0, resumed = 0;
    for (int i = 0; i < 8; ++i) {
        const double at = whole_seconds * (0.03 + 0.115 * i + 0.04 * jitter(random)); // 3%..~85%
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
        // Resumed from its directory (no --out: the run continues there), it
        // ends with the records of an uninterrupted run.
        const auto r = ts::test::runCli(kRun + " --json --set resume=" + dir.string());
        ASSERT_EQ(r.code, 0) << r.output;
        const auto done = ts::loadRun(dir, false);
        EXPECT_EQ(done.summary.status, ts::RunStatus::Completed);
        EXPECT_EQ(done.summary.epochs_completed, 6);
        EXPECT_EQ(done.summary.steps_completed, int64_t(uninterrupted.steps));
        // --json reports the whole run, as run.json does, not only the steps
        // of the process that resumed it.
        const size_t open = r.output.find('{'), close = r.output.rfind('}');
        ASSERT_TRUE(open != std::string::npos && close != std::string::npos) << r.output;
        const auto printed = nlohmann::json::parse(r.output.substr(open, close - open + 1));
        EXPECT_EQ(printed.value("run_dir", ""), dir.string());
        EXPECT_EQ(printed.value("steps_completed", int64_t(-1)), int64_t(uninterrupted.steps));
        EXPECT_EQ(printed.value("epochs_completed", -1), 6);
        const Shape shape = shapeOf(dir);
        EXPECT_EQ(shape.members, uninterrupted.members);
        EXPECT_EQ(shape.summary, uninterrupted.summary);
        EXPECT_EQ(shape.steps, uninterrupted.steps);
        EXPECT_EQ(shape.epochs, uninterrupted.epochs);
        EXPECT_TRUE(shape.numbered);
        ++resumed;
    }
    // The moments span loading, training and checkpointing.
    EXPECT_GE(with_run_json, 3);
    EXPECT_GE(resumed, 2);
}
