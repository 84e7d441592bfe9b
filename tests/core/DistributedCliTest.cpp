// Data-parallel runs as a user starts them: `run --nproc-per-node 2` on
// loopback, two "nodes" as two launchers, a rank killed mid-run, and a
// launcher's bad environment.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "CliChartFiles.h"
#include "CliRunner.h"
#include "EngineTestSupport.h"
#include "TestPaths.h"
#include "engine/Checkpoint.h"
#include "records/SummaryBuilder.h"
#include "report/StepsCsv.h"

namespace {

namespace fs = std::filesystem;
using ts::test::runCli;
using ts::test::runShell;

// A small run on synthetic images; BatchNorm-free model so that two ranks
// equal one process on the concatenated batches (with BatchNorm, each rank
// normalises by its own half's statistics).
std::string tinyRun(int batch_size, int steps) {
    return "--preset synthetic-smoke --set model=torchscript --set model_path=" +
           std::string(TRAINSCOPE_TEST_DATA_DIR) +
           "/models/no_norm_script.pt --set synthetic_samples=96 --set image_size=16"
           " --set batch_size=" +
           std::to_string(batch_size) + " --set max_steps=" + std::to_string(steps) +
           " --set val_max_steps=2 --set threads=1 --no-progress";
}

nlohmann::json readJson(const fs::path& file) {
    std::ifstream in(file);
    return nlohmann::json::parse(in);
}

int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

void expectRanksInSync(const nlohmann::json& run, int world) {
    ASSERT_TRUE(run.contains("distributed")) << run.dump();
    const auto& d = run["distributed"];
    EXPECT_EQ(d["world_size"], world);
    EXPECT_EQ(d["backend"], "gloo");
    ASSERT_EQ(d["ranks"].size(), size_t(world));
    for (int r = 0; r < world; ++r) {
        EXPECT_EQ(d["ranks"][r]["rank"], r);
        EXPECT_EQ(d["ranks"][r]["param_checksum"], d["ranks"][0]["param_checksum"]);
        EXPECT_EQ(d["ranks"][r]["param_checksum"].get<std::string>().size(), 16u);
        EXPECT_GT(d["ranks"][r]["allreduce_ms_per_step"].get<double>(), 0);
    }
}

TEST(DistributedCli, TwoRanksTrainInSyncAndEqualOneProcessOnTheWholeBatch) {
    const auto two = ts::test::freshDir("dist_two_ranks");
    const auto r =
        runCli("run " + tinyRun(8, 4) + " --nproc-per-node 2 --json --out " + two.string());
    ASSERT_EQ(r.code, 0) << r.output;
    const auto run = readJson(two / "run.json");
    EXPECT_EQ(run["summary"]["status"], "completed");
    expectRanksInSync(run, 2);
    // The job's rate is the ranks' sum; each rank's own records keep its share.
    const double global = run["summary"]["median_images_per_sec"];
    const double rank0 = run["distributed"]["ranks"][0]["median_images_per_sec"];
    const double rank1 = run["distributed"]["ranks"][1]["median_images_per_sec"];
    EXPECT_NEAR(global, rank0 + rank1, 1e-6 * global);
    EXPECT_NEAR(readJson(two / "ranks/1/run.json")["summary"]["median_images_per_sec"], rank1,
                1e-6 * rank1);
    for (const char* rank : {"0", "1"}) {
        const auto steps = ts::readStepsCsv(two / "ranks" / rank / "steps.csv");
        ASSERT_EQ(steps.size(), 4u) << rank;
        EXPECT_EQ(steps[0].batch_size, 8);
        EXPECT_GT(steps[1].allreduce_ms, 0);
        EXPECT_GE(steps[1].comm_wait_ms, 0);
    }
    EXPECT_TRUE(fs::exists(two / "final.pt"));
    EXPECT_FALSE(fs::exists(two / "ranks/1/final.pt")); // rank 0 alone checkpoints
    // The --json answer is the job's, printed once.
    EXPECT_NE(r.output.find("\"world_size\": 2"), std::string::npos) << r.output;

    const auto one = ts::test::freshDir("dist_one_process");
    const auto single = runCli("run " + tinyRun(16, 4) + " --out " + one.string());
    ASSERT_EQ(single.code, 0) << single.output;
    const auto a = ts::readCheckpointWeights(two / "final.pt");
    const auto b = ts::readCheckpointWeights(one / "final.pt");
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].first, b[i].first);
        EXPECT_TRUE(torch::allclose(a[i].second, b[i].second, 1e-4, 1e-5))
            << a[i].first << ": largest difference "
            << (a[i].second - b[i].second).abs().max().item<double>();
    }
}

TEST(DistributedCli, TwoNodesOnLoopbackMeetAtTheMasterPort) {
    const auto dir = ts::test::freshDir("dist_two_nodes");
    const std::string port = std::to_string(freePort());
    const std::string common = "run " + tinyRun(8, 3) + " --nnodes 2 --nproc-per-node 1" +
                               " --master-addr 127.0.0.1 --master-port " + port + " --out " +
                               dir.string();
    const std::string cli = TRAINSCOPE_CLI_PATH;
    const auto r = runShell("sh -c '" + cli + " " + common + " --node-rank 1 & node1=$!; " + cli +
                            " " + common + " --node-rank 0; rc0=$?; wait $node1; rc1=$?; " +
                            "echo codes $rc0 $rc1; [ $rc0 -eq 0 ] && [ $rc1 -eq 0 ]'");
    ASSERT_EQ(r.code, 0) << r.output;
    expectRanksInSync(readJson(dir / "run.json"), 2);
    EXPECT_TRUE(fs::exists(dir / "ranks/1/steps.csv"));
}

TEST(DistributedCli, AKilledRankStopsTheOthersWithAClearError) {
    const auto dir = ts::test::freshDir("dist_killed_rank");
    const std::string steps = (dir / "ranks/1/steps.csv").string();
    // Wait for rank 1's third step, then SIGKILL the child whose RANK is 1.
    const std::string script =
        std::string(TRAINSCOPE_CLI_PATH) + " run " + tinyRun(8, 0) +
        " --set synthetic_samples=20000 --nproc-per-node 2 --out " + dir.string() +
        R"sh( & pid=$!; n=0;
while [ "$(cat )sh" +
        steps +
        R"sh( 2>/dev/null | wc -l)" -lt 4 ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done
for c in $(pgrep -P $pid); do tr "\0" "\n" < /proc/$c/environ | grep -qx RANK=1 && kill -9 $c; done
start=$(date +%s); wait $pid; rc=$?; echo "launcher exit $rc after $(( $(date +%s) - start )) s"; exit $rc)sh";
    const auto r = runShell("sh -c '" + script + "'");
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find("rank 1 was killed by signal 9"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("Exception raised from"), std::string::npos) << r.output;
    // Every record is valid JSON saying what happened.
    const auto run = readJson(dir / "run.json");
    EXPECT_EQ(run["summary"]["status"], "failed");
    EXPECT_NE(run["summary"]["error"].get<std::string>().find("rank 1 was killed"),
              std::string::npos)
        << run["summary"].dump();
    const auto rank1 = readJson(dir / "ranks/1/run.json");
    EXPECT_EQ(rank1["summary"]["status"], "failed");
    EXPECT_GE(ts::readStepsCsv(dir / "ranks/0/steps.csv").size(), 3u);
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
}

// Resuming a 2-rank job from its epoch checkpoint ends exactly where the
// uninterrupted job ended (same shards, same position in the epoch, rank 0's
// optimizer state on every rank); another number of processes is refused.
TEST(DistributedCli, ATwoRankRunResumedFromItsEpochCheckpointEqualsTheUninterruptedOne) {
    const std::string two_epochs =
        tinyRun(8, 3) + " --set epochs=2 --set checkpoint_every=1 --set val_every=0";
    const auto full = ts::test::freshDir("dist_resume_full");
    const auto r = runCli("run " + two_epochs + " --nproc-per-node 2 --out " + full.string());
    ASSERT_EQ(r.code, 0) << r.output;
    const fs::path checkpoint = full / "epoch_1.pt";
    ASSERT_TRUE(fs::exists(checkpoint));

    const auto resumed = ts::test::freshDir("dist_resume_rest");
    const auto again = runCli("run " + two_epochs + " --set resume=" + checkpoint.string() +
                              " --nproc-per-node 2 --out " + resumed.string());
    ASSERT_EQ(again.code, 0) << again.output;
    expectRanksInSync(readJson(resumed / "run.json"), 2);
    for (const char* rank : {"0", "1"}) {
        const auto steps = ts::readStepsCsv(resumed / "ranks" / rank / "steps.csv");
        ASSERT_EQ(steps.size(), 3u) << rank; // the second epoch only
        EXPECT_EQ(steps.front().global_step, 3) << rank;
        EXPECT_EQ(steps.front().epoch, 1) << rank;
    }
    const auto a = ts::readCheckpointWeights(full / "final.pt");
    const auto b = ts::readCheckpointWeights(resumed / "final.pt");
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
        EXPECT_TRUE(torch::equal(a[i].second, b[i].second))
            << a[i].first << " differs after resume: largest difference "
            << (a[i].second - b[i].second).abs().max().item<double>();

    // One process cannot continue a 2-rank position, nor 2 ranks a single one's.
    const auto single = runCli("run " + two_epochs + " --set resume=" + checkpoint.string() +
                               " --out " + ts::test::freshDir("dist_resume_single").string());
    EXPECT_EQ(single.code, 2) << single.output;
    EXPECT_NE(single.output.find("epoch_1.pt was written by a job of 2 ranks"), std::string::npos)
        << single.output;
    const auto one = ts::test::freshDir("dist_resume_one");
    ASSERT_EQ(runCli("run " + two_epochs + " --out " + one.string()).code, 0);
    const auto widened =
        runCli("run " + two_epochs + " --set resume=" + (one / "epoch_1.pt").string() +
               " --nproc-per-node 2 --out " + ts::test::freshDir("dist_resume_wider").string());
    EXPECT_EQ(widened.code, 2) << widened.output;
    EXPECT_NE(widened.output.find("written by a job of one process and this job has 2 ranks"),
              std::string::npos)
        << widened.output;
    EXPECT_EQ(widened.output.find("Exception raised from"), std::string::npos) << widened.output;

    // Resumed in place from the same checkpoint: the job's and every rank's
    // records keep the first epoch and hold the second once, and the weights
    // end as before.
    const auto in_place = runCli("run " + two_epochs + " --set resume=" + checkpoint.string() +
                                 " --nproc-per-node 2 --json --out " + full.string());
    ASSERT_EQ(in_place.code, 0) << in_place.output;
    const auto job = readJson(full / "run.json");
    // --json reports the whole job, as its run.json does.
    const size_t open = in_place.output.find('{'), close = in_place.output.rfind('}');
    ASSERT_TRUE(open != std::string::npos && close != std::string::npos) << in_place.output;
    const auto printed = nlohmann::json::parse(in_place.output.substr(open, close - open + 1));
    EXPECT_EQ(printed["steps_completed"], job["summary"]["steps_completed"]);
    EXPECT_EQ(printed["epochs_completed"], 2);
    expectRanksInSync(job, 2);
    EXPECT_EQ(job["start_epoch"], 0);
    EXPECT_EQ(job["summary"]["epochs_completed"], 2);
    ASSERT_EQ(job["resumed"].size(), 1u);
    EXPECT_EQ(job["resumed"][0]["dropped_steps"], 3);
    for (const char* rank : {"", "ranks/0", "ranks/1"}) {
        const auto steps = ts::readStepsCsv(full / rank / "steps.csv");
        ASSERT_EQ(steps.size(), 6u) << rank;
        for (size_t i = 0; i < steps.size(); ++i)
            EXPECT_EQ(steps[i].global_step, int64_t(i)) << rank;
    }
    // Each rank's figures and the job's rate cover the whole job (both
    // processes' steps in the rank's folder), not only the resumed process.
    double global = 0;
    for (int r = 0; r < 2; ++r) {
        ts::SummaryBuilder whole(job["config"]["warmup_steps_excluded"].get<int>());
        for (const auto& s : ts::readStepsCsv(full / "ranks" / std::to_string(r) / "steps.csv"))
            whole.addStep(s);
        const ts::RankSummary figures = whole.rankFigures();
        const auto& recorded = job["distributed"]["ranks"][size_t(r)];
        EXPECT_NEAR(recorded["median_step_ms"].get<double>(), figures.median_step_ms, 1e-6) << r;
        EXPECT_NEAR(recorded["allreduce_ms_per_step"].get<double>(), figures.allreduce_ms_per_step,
                    1e-6)
            << r;
        global += figures.median_images_per_sec;
    }
    EXPECT_NEAR(job["summary"]["median_images_per_sec"].get<double>(), global, 1e-6 * global);
    const auto c = ts::readCheckpointWeights(full / "final.pt");
    ASSERT_EQ(c.size(), b.size());
    for (size_t i = 0; i < c.size(); ++i)
        EXPECT_TRUE(torch::equal(c[i].second, b[i].second)) << c[i].first;
}

// Each rank profiles itself: its trace holds the gloo collectives and says
// which rank it is, and the run directory opens in the Distributed view.
TEST(DistributedCli, ProfiledRanksTraceTheirCollectivesForTheDistributedView) {
    const auto dir = ts::test::freshDir("dist_profiled");
    const auto r = runCli("run " + tinyRun(8, 5) +
                          " --set profile.enabled=true --set profile.warmup=1"
                          " --set profile.active=3 --nproc-per-node 2 --out " +
                          dir.string());
    ASSERT_EQ(r.code, 0) << r.output;
    for (int rank : {0, 1}) {
        const auto trace = readJson(dir / "ranks" / std::to_string(rank) / "trace.json");
        // Trainscope's collector names Gloo's threads; Kineto's traces (LibTorch
        // 2.x) name threads by id, as torch.profiler's do.
        const bool kineto = !trace.contains("trainscope");
        EXPECT_EQ(trace["distributedInfo"]["rank"], rank);
        EXPECT_EQ(trace["distributedInfo"]["world_size"], 2);
        EXPECT_EQ(trace["distributedInfo"]["backend"], "gloo");
        size_t allreduces = 0, gloo_lanes = 0;
        for (const auto& e : trace["traceEvents"]) {
            if (e.value("name", "") == "gloo:all_reduce" && e.value("dur", 0.0) > 0) ++allreduces;
            if (e.value("name", "") == "thread_name" &&
                e["args"].value("name", "").rfind("gloo collectives (thread ", 0) == 0)
                ++gloo_lanes;
        }
        EXPECT_GE(allreduces, 3u) << "rank " << rank;              // at least one per profiled step
        if (!kineto) EXPECT_GE(gloo_lanes, 1u) << "rank " << rank; // Gloo's threads are named
    }
    EXPECT_FALSE(fs::exists(dir / "trace.json")); // the job's records hold no rank's trace

    const auto view = runCli("trace-stats " + dir.string() + " --view distributed --format json");
    ASSERT_EQ(view.code, 0) << view.output;
    const auto j = nlohmann::json::parse(view.output.substr(view.output.find('{')));
    ASSERT_EQ(j["ranks"].size(), 2u) << j.dump();
    for (int rank : {0, 1}) {
        const auto& v = j["ranks"][rank];
        EXPECT_EQ(v["rank"], rank);
        EXPECT_EQ(v["worker"], "rank" + std::to_string(rank));
        EXPECT_EQ(v["library"], "Gloo");
        EXPECT_EQ(v["backend"], "gloo");
        EXPECT_EQ(v["steps"].size(), 3u) << v.dump();
        EXPECT_GE(v["collectives"].get<int>(), 3) << v.dump();
        EXPECT_GT(v["average"]["communication_us"].get<double>() +
                      v["average"]["overlapping_us"].get<double>(),
                  0)
            << v.dump();
    }
}

// `sweep --key processes`: one process in the sweep's own process, two as a
// job of two ranks into the point's directory; the report says how it scaled.
TEST(DistributedCli, ASweepOverProcessesRunsJobsAndChartsTheirScaling) {
    const auto dir = ts::test::freshDir("dist_sweep");
    const auto r = runCli("sweep " + tinyRun(8, 1) +
                          " --key processes --values 2,1 --steps 2 --warmup 1 --repeat 1 --out " +
                          dir.string());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("[2/2] processes=2: ok"), std::string::npos) << r.output;
    const auto job = dir / "point_1_processes=2";
    const auto run = readJson(job / "run.json");
    expectRanksInSync(run, 2);
    EXPECT_EQ(run["summary"]["steps_completed"], 3);
    EXPECT_TRUE(fs::is_regular_file(job / "ranks" / "1" / "steps.csv"));
    EXPECT_FALSE(fs::exists(job / "final.pt")); // measuring runs keep no weights
    EXPECT_FALSE(fs::exists(dir / "point_0_processes=1" / "final.pt"));
    std::ifstream csv(dir / "sweep.csv");
    std::string header, one, two;
    std::getline(csv, header);
    std::getline(csv, one);
    std::getline(csv, two);
    EXPECT_NE(header.find(",speedup,scaling_efficiency,allreduce_ms_per_step,"), std::string::npos);
    EXPECT_EQ(one.rfind("0,1,ok,", 0), 0u) << one;
    EXPECT_EQ(two.rfind("1,2,ok,", 0), 0u) << two;
    // The chart is drawn where a renderer is installed (the GUI's, in CI).
    ts::test::expectChartOrNote(r.output, dir, "sweep_scaling.png", "sweep.md");
}

TEST(DistributedCli, ALaunchersBadEnvironmentIsNamed) {
    const auto r = runShell("WORLD_SIZE=2 RANK=5 MASTER_PORT=1 " +
                            std::string(TRAINSCOPE_CLI_PATH) + " run " + tinyRun(8, 1));
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("RANK"), std::string::npos) << r.output;
    const auto flags = runCli("run " + tinyRun(8, 1) + " --nnodes 2 --node-rank 2");
    EXPECT_EQ(flags.code, 2) << flags.output;
    EXPECT_NE(flags.output.find("--node-rank"), std::string::npos) << flags.output;
    const auto port = runCli("run " + tinyRun(8, 1) + " --nnodes 2");
    EXPECT_EQ(port.code, 2) << port.output;
    EXPECT_NE(port.output.find("--master-port"), std::string::npos) << port.output;
}

} // namespace
