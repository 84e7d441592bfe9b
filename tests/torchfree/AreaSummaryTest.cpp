// The timeline's area selection (analysis/AreaSummary): what lies inside a
// range of time and lanes, against SQL over the same trace, and the
// categories of a step's range against the Overview's step.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "GivenViewOptions.h"
#include "TestPaths.h"
#include "analysis/AreaSummary.h"
#include "analysis/GpuTraceAnalysis.h"
#include "inspect/TraceStatsCommand.h"
#include "query/TraceDatabase.h"
#include "trace/ChromeTraceReader.h"
#include "trace/RankTimeline.h"

namespace ts {
namespace {

const std::string kData = TRAINSCOPE_TEST_DATA_DIR;

struct Expected {
    int64_t count = 0, total = 0, inside = 0, self = 0;
};

// name -> figures, by SQL: the events overlapping [t0, t1) (or of no
// length inside it) on the lanes, with their self time from all children.
std::map<std::string, Expected> bySql(const Trace& t, int64_t t0, int64_t t1,
                                      const std::string& lanes) {
    TraceDatabase db(t);
    const std::string a = std::to_string(t0), b = std::to_string(t1);
    auto stmt = db.prepare(
        "SELECT s.name, count(*), sum(s.dur), sum(min(s.end_ts, " + b + ") - max(s.ts, " + a +
        ")), sum(s.dur - coalesce(c.child, 0)) FROM slices s LEFT JOIN (SELECT parent_id, "
        "sum(dur) AS child FROM slices WHERE parent_id IS NOT NULL GROUP BY parent_id) c ON "
        "c.parent_id = s.id WHERE ((s.end_ts > " +
        a + " AND s.ts < " + b + ") OR (s.dur = 0 AND s.ts >= " + a + " AND s.ts < " + b + "))" +
        lanes + " GROUP BY s.name");
    std::map<std::string, Expected> out;
    while (stmt->next()) {
        Expected& e = out[std::string(stmt->value(0).s)];
        e.count = stmt->value(1).i;
        e.total = stmt->value(2).i;
        e.inside = std::max<int64_t>(0, stmt->value(3).i);
        e.self = stmt->value(4).i;
    }
    return out;
}

void expectRows(const Trace& t, const std::vector<AreaRow>& rows,
                const std::map<std::string, Expected>& expected) {
    ASSERT_EQ(rows.size(), expected.size());
    for (const AreaRow& r : rows) {
        const std::string& name = t.names[r.name];
        ASSERT_TRUE(expected.count(name)) << name;
        const Expected& e = expected.at(name);
        EXPECT_EQ(r.count, e.count) << name;
        EXPECT_EQ(r.total_ns, e.total) << name;
        EXPECT_EQ(r.self_ns, e.self) << name;
        // Zero-length events add nothing inside; SQL's min - max is 0 for them.
        EXPECT_LE(std::abs(r.inside_ns - e.inside), 0) << name;
        EXPECT_EQ(int64_t(r.events.size()), r.count);
    }
}

TEST(AreaSummary, AStepOfAGpuTraceAgreesWithSqlAndWithTheOverview) {
    const Trace t = readChromeTraceFile(kData + "/h100/resnet50_bs64_bf16.pt.trace.json.gz");
    const GpuTraceAnalysis analysis = analyzeGpuTrace(t);
    ASSERT_GE(analysis.overview.steps.size(), 2u);
    const GpuStep& step = analysis.overview.steps[1];
    const AreaRoles roles = computeAreaRoles(t);
    const AreaSummary s = summarizeArea(t, {step.start_ns, step.end_ns, {}}, &roles);
    EXPECT_EQ(s.lanes, t.lanes.size());
    expectRows(t, s.overall, bySql(t, step.start_ns, step.end_ns, ""));
    // The range split like the Overview's step, category by category.
    for (size_t r = 0; r < kGpuRoleCount; ++r)
        EXPECT_EQ(s.categories_ns[r], step.cost_ns[r]) << toString(GpuRole(r));
    EXPECT_TRUE(s.has_gpu);
    // Busy: the time of the four device categories, which come first.
    const int64_t device = step.cost_ns[0] + step.cost_ns[1] + step.cost_ns[2] + step.cost_ns[3];
    EXPECT_NEAR(s.gpu_busy, double(device) / double(step.end_ns - step.start_ns), 1e-12);
    EXPECT_GT(s.gpu_busy, 0.3);
    // Per lane: each lane's rows add up to the overall ones.
    std::map<uint32_t, int64_t> counts;
    for (const AreaRow& r : s.by_lane)
        counts[r.name] += r.count;
    for (const AreaRow& r : s.overall)
        EXPECT_EQ(counts[r.name], r.count);
}

TEST(AreaSummary, ARangeOfSomeLanesHoldsOnlyThoseLanes) {
    const Trace t = readChromeTraceFile(kData + "/h100/gpt_decoder_bf16.pt.trace.json.gz");
    const int64_t t0 = t.events.core(t.events.size() / 3).start_ns;
    const int64_t t1 = t0 + 3'000'000;
    int32_t device_lane = -1;
    for (size_t l = 0; l < t.lanes.size(); ++l)
        if (t.lanes[l].device) device_lane = int32_t(l);
    ASSERT_GE(device_lane, 0);
    const AreaSummary s = summarizeArea(t, {t0, t1, {0, device_lane}}, nullptr);
    EXPECT_EQ(s.lanes, 2u);
    for (const AreaRow& r : s.by_lane)
        EXPECT_TRUE(r.lane == 0 || r.lane == device_lane);
    expectRows(t, s.overall,
               bySql(t, t0, t1, " AND s.lane IN (0, " + std::to_string(device_lane) + ")"));
    EXPECT_EQ(s.categories_ns[size_t(GpuRole::Total)], 0); // no roles given
}

TEST(AreaSummary, MemoryInTheRange) {
    const Trace t = readChromeTraceFile(kData + "/torch_profiler_sample.json");
    const int64_t t0 = t.kineto.memory.front().t_ns, t1 = t.kineto.memory.back().t_ns + 1;
    const AreaSummary s = summarizeArea(t, {t0, t1, {}}, nullptr);
    ASSERT_EQ(s.memory.size(), 1u);
    int64_t allocated = 0, freed = 0;
    for (const DeviceMemoryEvent& m : t.kineto.memory)
        (m.bytes > 0 ? allocated : freed) += std::abs(m.bytes);
    EXPECT_EQ(s.memory[0].device, "cpu");
    EXPECT_EQ(s.memory[0].allocated_bytes, allocated);
    EXPECT_EQ(s.memory[0].freed_bytes, freed);
    EXPECT_EQ(s.memory[0].records, int64_t(t.kineto.memory.size()));
    // An empty or reversed range holds nothing.
    EXPECT_TRUE(summarizeArea(t, {t1, t0, {}}, nullptr).overall.empty());
}

TEST(AreaSummary, AnAreaAcrossTheRanksOfADistributedProfile) {
    std::vector<RankTrace> ranks;
    for (int i = 0; i < 2; ++i) {
        RankTrace r;
        r.rank = i;
        r.path = kData + "/tb_plugin/test_distributed_nccl_" + std::to_string(i) + ".json";
        r.trace = readChromeTraceFile(r.path);
        ranks.push_back(std::move(r));
    }
    const Trace t = mergeRankTraces(ranks);
    // One lane of each rank, over the whole trace.
    int32_t lane0 = -1, lane1 = -1;
    for (size_t l = 0; l < t.lanes.size(); ++l) {
        if (lane0 < 0 && t.lanes[l].name.rfind("rank 0: ", 0) == 0) lane0 = int32_t(l);
        if (lane1 < 0 && t.lanes[l].name.rfind("rank 1: ", 0) == 0) lane1 = int32_t(l);
    }
    ASSERT_GE(lane0, 0);
    ASSERT_GE(lane1, 0);
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    for (size_t i = 0; i < t.events.size(); ++i) {
        t0 = std::min(t0, t.events.core(i).start_ns);
        t1 = std::max(t1, t.events.core(i).end_ns() + 1);
    }
    const AreaSummary s = summarizeArea(t, {t0, t1, {lane0, lane1}}, nullptr);
    bool saw0 = false, saw1 = false;
    for (const AreaRow& r : s.by_lane) {
        saw0 = saw0 || r.lane == lane0;
        saw1 = saw1 || r.lane == lane1;
    }
    EXPECT_TRUE(saw0 && saw1);
    expectRows(
        t, s.overall,
        bySql(t, t0, t1,
              " AND s.lane IN (" + std::to_string(lane0) + ", " + std::to_string(lane1) + ")"));
}

} // namespace
} // namespace ts

namespace ts {
namespace {

// trace-stats --view area: the same summary as the timeline's panel, for a
// step's window or a time range; a missing range is named.
TEST(AreaSummary, TheCliViewPrintsTheSameSummary) {
    TraceStatsOptions o;
    o.file = kData + "/h100/resnet50_bs64_bf16.pt.trace.json.gz";
    o.cache = false;
    o.view = "area";
    test::setViewOption(o, "--step", "3");
    o.format = "json";
    std::ostringstream out, err;
    ASSERT_EQ(runTraceStats(o, out, err), 0) << err.str();
    const nlohmann::json j = nlohmann::json::parse(out.str());
    const Trace t = readChromeTraceFile(o.file);
    int64_t start = 0, end = 0;
    for (size_t i = 0; i < t.events.size(); ++i)
        if (t.names[t.events.core(i).name] == "ProfilerStep#3" &&
            t.events.core(i).kind == EventKind::ProfilerStep) {
            start = t.events.core(i).start_ns;
            end = t.events.core(i).end_ns();
        }
    const AreaSummary s = summarizeArea(t, {start, end, {}}, nullptr);
    EXPECT_EQ(j["events"].get<int64_t>(), s.events);
    EXPECT_EQ(j["In the area, by name"].size(), s.overall.size());
    test::setViewOption(o, "--step", "");
    test::setViewOption(o, "--start-us", "1000");
    test::setViewOption(o, "--end-us", "2000");
    out.str("");
    ASSERT_EQ(runTraceStats(o, out, err), 0) << err.str();
    test::setViewOption(o, "--end-us", "");
    err.str("");
    EXPECT_EQ(runTraceStats(o, out, err), 2);
    EXPECT_NE(err.str().find("--start-us and --end-us"), std::string::npos) << err.str();
    test::setViewOption(o, "--start-us", "");
    err.str("");
    EXPECT_EQ(runTraceStats(o, out, err), 2);
    EXPECT_NE(err.str().find("needs a time range"), std::string::npos) << err.str();
}

} // namespace
} // namespace ts
