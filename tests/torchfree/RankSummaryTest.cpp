// A folder of many ranks read through their summaries (RankTraceSummary,
// its file, the parallel reader): the view made from summaries is the view
// made from the traces, to the byte of its JSON; a reopened folder reads
// only summaries; summaries stand for traces left on their nodes; damaged
// summary files are refused; and bad input (a rank twice, other world sizes
// or backends, missing ranks, a cut-short trace, a rank without collectives,
// clocks apart) is named in the view, never fatal. Also the distributions
// and who the others wait for, on ranks built to a known answer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/RankSpreads.h"
#include "analysis/RankSummaries.h"
#include "analysis/RankSummaryFile.h"
#include "inspect/TraceIndexCommand.h"
#include "report/DistributedReport.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

struct RankSpec {
    int rank = 0;
    int world = 4;
    std::string backend = "nccl";
    int64_t compute_us = 100;
    int64_t shift_us = 0; // its clock against the others'
    int steps = 3;
    bool collectives = true;
};

// A rank of a job whose slowest rank computes `slowest_us` per step: every
// rank's all_reduce kernel ends when the slowest rank's could (they end
// together), so a rank that computes less waits the difference.
std::string rankTrace(const RankSpec& r, int64_t slowest_us) {
    std::string events;
    auto add = [&](const std::string& e) { events += (events.empty() ? "" : ",\n") + e; };
    for (int s = 0; s < r.steps; ++s) {
        const int64_t t = 1'000'000 + r.shift_us + s * 2000;
        const std::string id = std::to_string(100 * (s + 1)); // no leading 0
        auto at = [&](int64_t us) { return std::to_string(t + us); };
        add(R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + std::to_string(s) +
            R"(","pid":1,"tid":1,"ts":)" + at(0) + R"(,"dur":1500,"args":{"External id":)" + id +
            "1}}");
        add(R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":)" + at(1) +
            R"(,"dur":3,"args":{"External id":)" + id + "2}}");
        add(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
            at(2) + R"(,"dur":1,"args":{"correlation":)" + id + R"(10,"External id":)" + id +
            "2}}");
        add(R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":)" + at(5) +
            R"(,"dur":)" + std::to_string(r.compute_us) + R"(,"args":{"device":0,"correlation":)" +
            id + R"(10,"External id":)" + id + "2}}");
        if (!r.collectives) continue;
        add(R"({"ph":"X","cat":"user_annotation","name":"nccl:all_reduce","pid":1,"tid":1,"ts":)" +
            at(10) + R"(,"dur":5,"args":{"External id":)" + id +
            R"(5,"Input Dims":[[1000]],"Input type":["float"]}})");
        add(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
            at(11) + R"(,"dur":1,"args":{"correlation":)" + id + R"(11,"External id":)" + id +
            "11}}");
        add(R"({"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce","pid":0,"tid":20,"ts":)" +
            at(5 + r.compute_us) + R"(,"dur":)" + std::to_string(slowest_us - r.compute_us + 20) +
            R"(,"args":{"device":0,"correlation":)" + id + R"(11,"External id":)" + id + "11}}");
    }
    return R"({"schemaVersion":1,"distributedInfo":{"backend":")" + r.backend + R"(","rank":)" +
           std::to_string(r.rank) + R"(,"world_size":)" + std::to_string(r.world) +
           "},\n\"traceEvents\":[\n" + events + "]}";
}

class RankFolderTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("ts-rank-summary-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_ / "ranks");
        settings_.cache.directory = dir_ / "cache";
    }
    void TearDown() override { fs::remove_all(dir_); }

    fs::path write(const std::string& name, const std::string& text) {
        const fs::path p = dir_ / "ranks" / name;
        std::ofstream(p) << text;
        return p;
    }
    void writeRanks(const std::vector<RankSpec>& specs) {
        int64_t slowest = 0;
        for (const RankSpec& s : specs)
            slowest = std::max(slowest, s.compute_us);
        for (const RankSpec& s : specs)
            write("rank-" + std::to_string(s.rank) + ".json", rankTrace(s, slowest));
    }
    RankSpan span() const { return findRankSpans({dir_ / "ranks"}).at(0); }
    DistributedView view(SpanSummaries& read) {
        DistributedView v = computeDistributedView(std::move(read.ranks), settings_.options);
        v.left_out.insert(v.left_out.begin(), read.unreadable.begin(), read.unreadable.end());
        return v;
    }
    static std::string jsonOf(const DistributedView& v) {
        RankSelection all;
        all.ranges.emplace_back(0, 1 << 30);
        return distributedJson(v, 0, all).dump();
    }
    static bool mentions(const std::vector<std::string>& lines, const std::string& text) {
        for (const std::string& line : lines)
            if (line.find(text) != std::string::npos) return true;
        return false;
    }

    fs::path dir_;
    RankSummarySettings settings_;
};

std::vector<RankSpec> fourRanks(int64_t straggler_us = 100) {
    std::vector<RankSpec> specs(4);
    for (int r = 0; r < 4; ++r) {
        specs[r].rank = r;
        specs[r].compute_us = r == 2 ? straggler_us : 100;
    }
    return specs;
}

TEST_F(RankFolderTest, TheViewFromSummariesIsTheViewFromTraces) {
    writeRanks(fourRanks(500));
    const DistributedView from_traces = computeDistributedView(readRankSpan(span()));
    SpanSummaries cold = summarizeSpan(span(), settings_);
    EXPECT_EQ(cold.from_summary_files, 0u);
    const std::string cold_json = jsonOf(view(cold));
    EXPECT_EQ(cold_json, jsonOf(from_traces));
    SpanSummaries warm = summarizeSpan(span(), settings_);
    EXPECT_EQ(warm.from_summary_files, 4u) << "reopened from the cache's summaries";
    EXPECT_EQ(jsonOf(view(warm)), cold_json);
}

TEST(RankSummaryFile, PluginFixturesRoundTripToTheSameView) {
    for (const char* test :
         {"test_distributed_nccl", "test_distributed_gloo_gpu", "test_distributed_gloo_cpu"})
        for (bool plugin : {true, false}) {
            GpuAnalysisOptions options;
            options.plugin_compatible = plugin;
            std::vector<RankTrace> ranks;
            std::vector<RankTraceSummary> summaries;
            for (int i = 0; i < 2; ++i) {
                RankTrace r;
                r.worker = "worker" + std::to_string(i);
                r.rank = i;
                r.rank_source = RankSource::WorkerName;
                r.path = fs::path(TRAINSCOPE_TEST_DATA_DIR) / "tb_plugin" /
                         (std::string(test) + "_" + std::to_string(i) + ".json");
                r.trace = readChromeTraceFile(r.path);
                const std::string bytes = writeRankSummary(summarizeRank(r, options), {});
                std::optional<RankSummaryRead> back = readRankSummary(bytes);
                ASSERT_TRUE(back) << test;
                summaries.push_back(std::move(back->summary));
                ranks.push_back(std::move(r));
            }
            RankSelection all;
            all.ranges.emplace_back(0, 1);
            EXPECT_EQ(distributedJson(computeDistributedView(std::move(summaries), options, true),
                                      0, all),
                      distributedJson(computeDistributedView(ranks, options), 0, all))
                << test << (plugin ? " plugin" : "");
        }
}

TEST(RankSummaryFile, DamagedFilesAreRefusedNeverTrusted) {
    RankTrace r;
    r.path = "rank.json";
    RankSpec spec;
    r.trace = parseChromeTrace(rankTrace(spec, 100), "rank.json");
    const std::string bytes = writeRankSummary(summarizeRank(r, {}), {});
    ASSERT_TRUE(readRankSummary(bytes));
    std::string why;
    for (size_t cut = 0; cut < bytes.size(); cut += 7)
        EXPECT_FALSE(readRankSummary(bytes.substr(0, cut), &why)) << cut;
    for (size_t at = 0; at < bytes.size(); at += 5) {
        std::string flipped = bytes;
        flipped[at] = char(flipped[at] ^ 0x5a);
        EXPECT_FALSE(readRankSummary(flipped, &why)) << at;
    }
    EXPECT_FALSE(readRankSummary(std::string(200, 'x'), &why));
    EXPECT_EQ(why, "not a rank summary file");
}

TEST_F(RankFolderTest, AChangedTraceIsReadAgain) {
    writeRanks(fourRanks());
    summarizeSpan(span(), settings_);
    std::vector<RankSpec> specs = fourRanks(300);
    write("rank-2.json", rankTrace(specs[2], 300) + "\n ");
    SpanSummaries again = summarizeSpan(span(), settings_);
    EXPECT_EQ(again.from_summary_files, 3u);
    EXPECT_EQ(view(again).ranks[2].average.computationWithOverlapNs(), 300'000);
}

TEST_F(RankFolderTest, SummariesStandForTracesLeftOnTheirNodes) {
    writeRanks(fourRanks(500));
    const RankSpan here = span();
    for (size_t i = 0; i < here.files.size(); ++i)
        writeSummaryBeside(here.files[i], i, settings_.options);
    const std::string expected = [&] {
        SpanSummaries read = summarizeSpan(span(), settings_);
        EXPECT_EQ(read.from_summary_files, 4u) << "the summaries beside the traces";
        return jsonOf(view(read));
    }();
    const fs::path gathered = dir_ / "gathered";
    fs::create_directories(gathered);
    for (const RankFile& f : here.files)
        fs::copy_file(summaryBeside(f.path), gathered / summaryBeside(f.path).filename());
    const RankSpan summaries_only = findRankSpans({gathered}).at(0);
    ASSERT_EQ(summaries_only.files.size(), 4u);
    SpanSummaries read = summarizeSpan(summaries_only, settings_);
    EXPECT_EQ(read.from_summary_files, 4u);
    DistributedView v = view(read);
    ASSERT_EQ(v.ranks.size(), 4u);
    EXPECT_EQ(v.ranks[2].path, (gathered / "rank-2.json").string());
    // The same figures; only the paths differ.
    v.ranks.clear();
    SpanSummaries again = summarizeSpan(span(), settings_);
    DistributedView original = view(again);
    original.ranks.clear();
    EXPECT_EQ(jsonOf(v), jsonOf(original));
    EXPECT_FALSE(expected.empty());
}

TEST_F(RankFolderTest, BadRanksAreNamedAndTheOthersStillFormTheView) {
    std::vector<RankSpec> specs;
    for (int r = 0; r < 6; ++r) {
        RankSpec s;
        s.rank = r;
        s.world = 8;
        specs.push_back(s);
    }
    specs[4].world = 16;
    specs[4].backend = "gloo";
    specs[5].shift_us = 5'000'000;
    writeRanks(specs);
    RankSpec twice = specs[1];
    write("rank-1-again.json", rankTrace(twice, 100));
    RankSpec silent;
    silent.rank = 6;
    silent.world = 8;
    silent.collectives = false;
    write("rank-6.json", rankTrace(silent, 100));
    write("rank-7.json", rankTrace(RankSpec{7, 8}, 100).substr(0, 700)); // cut short
    SpanSummaries read = summarizeSpan(span(), settings_);
    const DistributedView v = view(read);
    ASSERT_EQ(v.ranks.size(), 6u);
    EXPECT_TRUE(mentions(v.left_out, "rank-7.json")) << jsonOf(v);
    EXPECT_TRUE(mentions(v.left_out, "rank-1.json: also rank 1")) << jsonOf(v);
    EXPECT_TRUE(mentions(v.left_out, "rank-6.json: no collective communication calls"));
    EXPECT_TRUE(mentions(v.notes, "disagree on the world size: 8 (ranks 0-3, 5), 16 (rank 4)"))
        << jsonOf(v);
    EXPECT_TRUE(mentions(v.notes, "disagree on the backend: gloo (rank 4), nccl (ranks 0-3, 5)"));
    EXPECT_TRUE(mentions(v.notes, "Clocks disagree with rank 0's: rank 5 by 5.00 s")) << jsonOf(v);
    EXPECT_EQ(v.ranks[5].clock_offset_ns, 5'000'000'000);
}

TEST_F(RankFolderTest, MissingRanksAreNamed) {
    std::vector<RankSpec> specs = fourRanks();
    for (RankSpec& s : specs)
        s.world = 8;
    specs.erase(specs.begin() + 1);
    writeRanks(specs);
    SpanSummaries read = summarizeSpan(span(), settings_);
    const DistributedView v = view(read);
    EXPECT_TRUE(mentions(v.notes, "3 of the job's 8 ranks are here; missing: 1, 4-7."))
        << jsonOf(v);
}

TEST_F(RankFolderTest, TheRankTheOthersWaitForIsOneLine) {
    writeRanks(fourRanks(500));
    SpanSummaries read = summarizeSpan(span(), settings_);
    const DistributedView v = view(read);
    EXPECT_EQ(v.arrivals.calls, 3u);
    EXPECT_EQ(v.arrivals.max_ns, 400'000);
    EXPECT_EQ(v.ranks[2].last_arrivals, 3u);
    EXPECT_EQ(v.ranks[2].caused_wait_ns, 3 * 400'000);
    EXPECT_EQ(v.ranks[0].waited_ns, 3 * 400'000);
    EXPECT_EQ(v.ranks[2].waited_ns, 0);
    EXPECT_EQ(v.arrivals.verdict.rfind("rank 2 arrives last at 3 of 3 collectives: the others wait "
                                       "for it 400 us per step (1.20 ms in all)",
                                       0),
              0u)
        << v.arrivals.verdict;
    ASSERT_FALSE(v.spreads.empty());
    const MetricSpread& step = v.spreads[0];
    EXPECT_EQ(step.key, "step");
    EXPECT_EQ(step.ranks, 4u);
    const MetricSpread& computation = v.spreads[1];
    EXPECT_EQ(computation.min_ns, 100'000);
    EXPECT_EQ(computation.median_ns, 100'000);
    EXPECT_EQ(computation.max_ns, 500'000);
    EXPECT_EQ(computation.p95_ns, 500'000);
    EXPECT_EQ(computation.highest.front(), 2);
    const MetricSpread& waiting = v.spreads[3];
    EXPECT_EQ(waiting.key, "synchronizing");
    EXPECT_EQ(waiting.lowest.front(), 2);
    EXPECT_EQ(waiting.max_ns, 400'000);
}

TEST_F(RankFolderTest, TraceIndexWritesSummariesBesideTheTracesAndNamesTheOnesThatFail) {
    writeRanks(fourRanks(500));
    write("rank-4.json", rankTrace(RankSpec{4}, 100).substr(0, 500)); // cut short
    std::ostringstream out, err;
    TraceIndexOptions options;
    options.inputs = {(dir_ / "ranks").string()};
    EXPECT_EQ(runTraceIndex(options, out, err), 2);
    for (int r = 0; r < 4; ++r)
        EXPECT_TRUE(fs::exists(dir_ / "ranks" / ("rank-" + std::to_string(r) + ".json.tsrank")))
            << r;
    EXPECT_FALSE(fs::exists(dir_ / "ranks" / "rank-4.json.tsrank"));
    EXPECT_NE(err.str().find("rank-4.json"), std::string::npos) << err.str();
    EXPECT_NE(out.str().find("4 of 5 summaries written"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("rank 2, 3 steps, 3 collectives -> rank-2.json.tsrank"),
              std::string::npos)
        << out.str();
    // Read back without the cache: the summaries beside the traces, and the cut-short rank named.
    settings_.cache.enabled = false;
    SpanSummaries read = summarizeSpan(span(), settings_);
    EXPECT_EQ(read.from_summary_files, 4u);
    ASSERT_EQ(read.unreadable.size(), 1u);
    EXPECT_NE(read.unreadable[0].find("rank-4.json"), std::string::npos);
}

TEST(RankSelection, ListsAndRangesOfRanks) {
    const RankSelection s = RankSelection::parse("0,5-7,12");
    for (int64_t r : {0, 5, 6, 7, 12})
        EXPECT_TRUE(s.contains(r)) << r;
    for (int64_t r : {1, 4, 8, 11, 13})
        EXPECT_FALSE(s.contains(r)) << r;
    EXPECT_TRUE(RankSelection::parse("all").contains(1023));
    for (const char* bad : {"", "a", "3-1", "1,,2", "-4", "1-"})
        try {
            RankSelection::parse(bad);
            ADD_FAILURE() << bad;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("Option --ranks is '" + std::string(bad) + "'"),
                      std::string::npos);
        }
}

TEST(RankSpreads, MedianOfTheOthers) {
    const SortedValues v({5, 1, 9, 3});
    EXPECT_EQ(v.medianWithout(9), 3);
    EXPECT_EQ(v.medianWithout(1), 5);
    EXPECT_EQ(v.medianWithout(3), 5);
    EXPECT_EQ(rankListText({0, 1, 2, 5, 7, 8}), "0-2, 5, 7-8");
    EXPECT_EQ(rankListText({0, 2, 4, 6}, 2), "0, 2 and 2 more");
}

} // namespace
} // namespace ts
