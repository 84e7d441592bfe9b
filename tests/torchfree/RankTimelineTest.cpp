// The ranks of a distributed profile merged into one trace for the timeline:
// the plugin's two-rank NCCL sample, each rank's lanes one above the other.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "TestPaths.h"
#include "analysis/KinetoEvents.h"
#include "analysis/LaunchLinks.h"
#include "trace/ChromeTraceReader.h"
#include "trace/RankTimeline.h"

namespace ts {
namespace {

std::vector<RankTrace> ncclRanks() {
    std::vector<RankTrace> ranks;
    for (int i = 0; i < 2; ++i) {
        RankTrace r;
        r.worker = "worker" + std::to_string(i);
        r.rank = i;
        r.path = std::filesystem::path(TRAINSCOPE_TEST_DATA_DIR) / "tb_plugin" /
                 ("test_distributed_nccl_" + std::to_string(i) + ".json");
        r.trace = readChromeTraceFile(r.path);
        ranks.push_back(std::move(r));
    }
    return ranks;
}

// The rank a merged lane belongs to, from its "rank <r>: " prefix.
int rankOfLane(const Trace& t, int32_t lane) {
    const std::string& name = t.lanes[size_t(lane)].name;
    if (name.rfind("rank 0: ", 0) == 0) return 0;
    return name.rfind("rank 1: ", 0) == 0 ? 1 : -1;
}

TEST(RankTimeline, EveryRanksLanesOneAboveTheOtherOnOneClock) {
    const std::vector<RankTrace> ranks = ncclRanks();
    const Trace merged = mergeRankTraces(ranks);
    ASSERT_EQ(merged.lanes.size(), ranks[0].trace.lanes.size() + ranks[1].trace.lanes.size());
    ASSERT_EQ(merged.events.size(), ranks[0].trace.events.size() + ranks[1].trace.events.size());
    for (size_t l = 0; l < merged.lanes.size(); ++l)
        EXPECT_NE(rankOfLane(merged, int32_t(l)), -1) << merged.lanes[l].name;
    EXPECT_EQ(merged.origin_ns, std::min(ranks[0].trace.origin_ns, ranks[1].trace.origin_ns));

    // Each rank's events keep their absolute times, names and kinds.
    std::map<int, std::multiset<std::tuple<int64_t, int64_t, std::string, int>>> in, out;
    for (int r = 0; r < 2; ++r)
        for (const TraceEvent& e : ranks[size_t(r)].trace.events)
            in[r].emplace(ranks[size_t(r)].trace.origin_ns + e.start_ns, e.dur_ns,
                          ranks[size_t(r)].trace.nameOf(e), int(e.kind));
    for (const TraceEvent& e : merged.events)
        out[rankOfLane(merged, e.lane)].emplace(merged.origin_ns + e.start_ns, e.dur_ns,
                                                merged.nameOf(e), int(e.kind));
    EXPECT_EQ(in, out);
    ASSERT_EQ(merged.steps.size(), ranks[0].trace.steps.size());
    for (size_t i = 0; i < merged.steps.size(); ++i) // the lowest rank's, on the merged clock
        EXPECT_EQ(merged.origin_ns + merged.steps[i].start_ns,
                  ranks[0].trace.origin_ns + ranks[0].trace.steps[i].start_ns);

    // A kernel links to its own rank's launch, never to the other rank's
    // call with the same correlation id: as many links as in both alone.
    auto countLinks = [](const Trace& t, bool check_ranks) {
        const KinetoEvents events = collectKinetoEvents(t, GpuAnalysisOptions{});
        const LaunchLinks links = linkLaunches(t, events);
        size_t n = 0;
        for (const RuntimeCall& call : links.runtimes) {
            if (call.event < 0) continue;
            for (const int32_t pos : call.device) {
                ++n;
                const int32_t kernel = events.events[size_t(pos)].event;
                if (check_ranks) {
                    EXPECT_EQ(rankOfLane(t, t.events[size_t(kernel)].lane),
                              rankOfLane(t, t.events[size_t(call.event)].lane));
                }
            }
        }
        return n;
    };
    EXPECT_EQ(countLinks(merged, true),
              countLinks(ranks[0].trace, false) + countLinks(ranks[1].trace, false));
    // Two ranks with the very same correlation ids (one GPU trace twice).
    std::vector<RankTrace> twins(2);
    for (int r = 0; r < 2; ++r) {
        twins[size_t(r)].rank = r;
        twins[size_t(r)].trace = readChromeTraceFile(
            std::filesystem::path(TRAINSCOPE_TEST_DATA_DIR) / "timeline_launches.json");
    }
    const size_t alone = countLinks(twins[0].trace, false);
    ASSERT_GT(alone, 0u);
    const Trace both = mergeRankTraces(twins);
    EXPECT_EQ(countLinks(both, true), 2 * alone);
    ASSERT_FALSE(both.steps.empty());
    EXPECT_EQ(both.steps.size(), twins[0].trace.steps.size());
}

} // namespace
} // namespace ts
