// analysis/QueueLength.h and analysis/MemoryBandwidth.h: Holistic Trace
// Analysis' queue length and memory bandwidth. Expected: HTA 0.6.1's
// get_queue_length_summary(), get_time_spent_blocked_on_full_queue() and
// get_memory_bw_summary() on these files (bench/hta/expected/), with its
// rounding (ActivityOptions::hta_rounding) and its launch calls.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/MemoryBandwidth.h"
#include "analysis/QueueLength.h"
#include "report/CounterTables.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

struct Read {
    Trace trace;
    DeviceActivities activity;
};

Read readAsHta(const char* file) {
    Read r{readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/" + file), {}};
    ActivityOptions options;
    options.hta_rounding = true;
    r.activity = collectDeviceActivity(r.trace, options);
    return r;
}

QueueLength htaQueue(const Read& r, int32_t max_length = 1024) {
    QueueLengthOptions options;
    options.hta_calls_only = true;
    options.max_queue_length = max_length;
    return queueLength(r.trace, r.activity, options);
}

const StreamQueue& stream(const QueueLength& q, int64_t id) {
    for (const StreamQueue& s : q.streams)
        if (s.stream == id) return s;
    throw std::runtime_error("no stream " + std::to_string(id));
}

const MemoryKindBandwidth& kind(const MemoryBandwidth& bw, const std::string& name) {
    for (const MemoryKindBandwidth& k : bw.kinds)
        if (k.kind == name) return k;
    throw std::runtime_error("no kind " + name);
}

TEST(QueueLength, AsHtaOnItsSampledRanks) {
    const Read rank0 = readAsHta("distributed_hta/rank-0.json.gz");
    const QueueLength q = htaQueue(rank0, 16);
    ASSERT_EQ(q.streams.size(), 5u); // 7, 23, 25, 84, 203
    const StreamQueue& s7 = stream(q, 7);
    EXPECT_EQ(s7.stats.count, 1052);
    EXPECT_NEAR(s7.stats.mean, 23.619771863117872, 1e-9);
    EXPECT_NEAR(s7.stats.std, 19.977006495724194, 1e-9);
    EXPECT_EQ(s7.stats.p50, 22.0);
    EXPECT_EQ(s7.stats.p75, 38.0);
    EXPECT_EQ(s7.stats.max, 76.0);
    EXPECT_EQ(s7.stats.min, 0.0);
    // Full at 16 for 230,264 us, 38.19 % of the trace (HTA gives one stream a rank).
    EXPECT_EQ(s7.blocked_ns, 230264000);
    EXPECT_NEAR(s7.blocked_share, 0.3818684462340359, 2e-3);
    EXPECT_EQ(stream(q, 25).stats.mean, 4.0);
    EXPECT_EQ(stream(q, 203).stats.count, 2);
    // The queue never goes below 0 nor ends above it.
    for (const StreamQueue& s : q.streams) {
        EXPECT_EQ(s.stats.min, 0.0) << s.stream;
        EXPECT_EQ(s.series.back().length, 0) << s.stream;
    }
    // CUDA's 1024 is never reached here.
    EXPECT_EQ(stream(htaQueue(rank0), 7).blocked_ns, 0);
}

// An H100 trace: HTA orders a launch and a start at the same microsecond
// either way (51 such ties here); Trainscope puts the launch first, so the
// mean over the points differs by 0.4 %.
TEST(QueueLength, H100ResNetWithinTiesAndEveryLaunchCounted) {
    const Read r = readAsHta("h100/resnet50_bs64_bf16.pt.trace.json.gz");
    const QueueLength q = htaQueue(r);
    const StreamQueue& s7 = stream(q, 7);
    EXPECT_EQ(s7.stats.count, 4026);
    EXPECT_NEAR(s7.stats.mean, 3.955538996522603, 0.01 * 3.955538996522603);
    EXPECT_EQ(s7.stats.max, 39.0);
    // Trainscope's own figure counts every linked launch and keeps nanoseconds.
    const Trace& trace = r.trace;
    const QueueLength own = queueLength(trace, collectDeviceActivity(trace));
    EXPECT_GE(stream(own, 7).stats.count, 4026);
    EXPECT_GT(stream(own, 7).time_mean, 0);
}

TEST(MemoryBandwidth, AsHtaByKind) {
    const Read r = readAsHta("distributed_hta/rank-0.json.gz");
    const MemoryBandwidth bw = memoryBandwidth(r.trace, r.activity);
    ASSERT_EQ(bw.kinds.size(), 4u);
    const MemoryKindBandwidth& dtod = kind(bw, "Memcpy DtoD");
    EXPECT_EQ(dtod.stats.count, 4);
    EXPECT_NEAR(dtod.stats.mean, 491.943203923047, 1e-9);
    EXPECT_NEAR(dtod.stats.max, 960.2344322344322, 1e-9);
    EXPECT_NEAR(dtod.stats.min, 0.000969227041434456, 1e-12);
    const MemoryKindBandwidth& memset = kind(bw, "Memset");
    EXPECT_EQ(memset.stats.count, 5);
    EXPECT_NEAR(memset.stats.mean, 150.72296732097684, 1e-9);
    EXPECT_EQ(kind(bw, "Memcpy HtoD").stats.count, 12);
    EXPECT_EQ(kind(bw, "Memcpy HtoD").copies, 12);

    const Read h100 = readAsHta("h100/resnet50_bs64_bf16.pt.trace.json.gz");
    const MemoryBandwidth h = memoryBandwidth(h100.trace, h100.activity);
    ASSERT_EQ(h.kinds.size(), 1u);
    EXPECT_EQ(h.kinds[0].kind, "Memset");
    EXPECT_EQ(h.kinds[0].stats.count, 101);
    EXPECT_NEAR(h.kinds[0].stats.mean, 180.52963958334558, 1e-6);
    EXPECT_NEAR(h.kinds[0].stats.max, 3445.5622317596567, 1e-6);
}

TEST(MemoryBandwidth, KindsByNameAsHta) {
    // HTA's tests/test_coverage_gaps.py.
    EXPECT_EQ(memoryKindOf("Memcpy DtoH (Device)"), "Memcpy DtoH");
    EXPECT_EQ(memoryKindOf("Memcpy HtoD (Pinned)"), "Memcpy HtoD");
    EXPECT_EQ(memoryKindOf("Memset (Device)"), "Memset");
    EXPECT_EQ(memoryKindOf("custom_dma_op"), "Memcpy Unknown");
}

TEST(CounterTables, JsonKeysCarryUnits) {
    const Read r = readAsHta("distributed_hta/rank-0.json.gz");
    const nlohmann::json q = queueLengthJson({htaQueue(r, 16)});
    EXPECT_EQ(q["max_queue_length"], 16);
    const nlohmann::json& s = q["ranks"][0]["streams"];
    bool found = false;
    for (const nlohmann::json& row : s)
        if (row["stream"] == 7) {
            found = true;
            EXPECT_EQ(row["max"], 76.0);
            EXPECT_EQ(row["blocked_on_full_queue_us"], 230264.0);
        }
    EXPECT_TRUE(found);
    const nlohmann::json bw = memoryBandwidthJson({memoryBandwidth(r.trace, r.activity)});
    EXPECT_EQ(bw["ranks"][0]["kinds"][0]["kind"], "Memcpy DtoD");
    EXPECT_NEAR(bw["ranks"][0]["kinds"][0]["mean_gbps"].get<double>(), 491.943, 1e-3);
    EXPECT_TRUE(bw["ranks"][0]["kinds"][0].contains("max_gbps"));
}

} // namespace
} // namespace ts
