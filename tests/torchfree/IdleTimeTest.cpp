// analysis/IdleTime.h: Holistic Trace Analysis' temporal and idle-time
// breakdowns. The expected figures are HTA's (0.6.1, facebookresearch/
// HolisticTraceAnalysis at f4d0062, and 0.5.0 from PyPI: the same), run on
// these very files: get_temporal_breakdown() and get_idle_time_breakdown(
// show_idle_interval_stats=True) with its default consecutive_kernel_delay
// (30 us). HTA rounds sub-microsecond times inward to whole microseconds;
// ActivityOptions::hta_rounding does the same so that the figures agree to
// the microsecond; Trainscope's own figures keep the nanoseconds.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/GpuDiagnoses.h"
#include "analysis/GpuTraceAnalysis.h"
#include "report/IdleTables.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

Trace load(const std::string& name) {
    return readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/" + name);
}

DeviceActivities htaActivity(const Trace& trace) {
    ActivityOptions options;
    options.hta_rounding = true;
    return collectDeviceActivity(trace, options);
}

const StreamIdle& stream(const IdleBreakdown& idle, int64_t id) {
    for (const StreamIdle& s : idle.streams)
        if (s.stream == id) return s;
    throw std::logic_error("no stream " + std::to_string(id));
}

constexpr size_t kHost = size_t(IdleCause::HostWait), kKernel = size_t(IdleCause::KernelWait),
                 kOther = size_t(IdleCause::Other);

// HTA's table for tests/data/kineto_call_stacks.json: rank 0, idle 75,
// compute 28, non-compute 0, kernel_time 103; stream 7 host_wait 75.
TEST(IdleTime, TwoKernelsAsHta) {
    const Trace trace = load("kineto_call_stacks.json");
    const DeviceActivities activity = collectDeviceActivity(trace);
    const TemporalBreakdown t = temporalBreakdown(activity);
    EXPECT_EQ(t.rank, 0);
    EXPECT_EQ(t.idle_ns, 75000);
    EXPECT_EQ(t.compute_ns, 28000);
    EXPECT_EQ(t.non_compute_ns, 0);
    EXPECT_EQ(t.window_ns, 103000);
    EXPECT_NEAR(100 * t.share(t.idle_ns), 72.82, 0.005);
    const IdleBreakdown idle = idleBreakdown(trace, activity);
    ASSERT_EQ(idle.streams.size(), 1u);
    const StreamIdle& s = idle.streams[0];
    EXPECT_EQ(s.stream, 7);
    EXPECT_EQ(s.idle_ns[kHost], 75000);
    EXPECT_EQ(s.idle_ns[kKernel], 0);
    EXPECT_EQ(s.intervals[kHost].count, 1);
    EXPECT_TRUE(std::isnan(s.intervals[kHost].std)); // one gap: no sample deviation
}

// HTA on tests/data/distributed_hta (its own trace_filter/sampled_rank-*
// traces): two ranks, five streams each, the last ProfilerStep left out.
TEST(IdleTime, DistributedRanksAsHta) {
    const int64_t temporal[2][4] = {{321378, 106252, 172428, 600058},
                                    {328671, 135548, 136455, 600674}};
    for (int rank = 0; rank < 2; ++rank) {
        const Trace trace = load("distributed_hta/rank-" + std::to_string(rank) + ".json.gz");
        const DeviceActivities activity = htaActivity(trace);
        EXPECT_TRUE(activity.last_step_dropped);
        const TemporalBreakdown t = temporalBreakdown(activity);
        EXPECT_EQ(t.rank, rank);
        EXPECT_NEAR(t.idle_ns / 1000.0, temporal[rank][0], 1) << rank;
        EXPECT_NEAR(t.compute_ns / 1000.0, temporal[rank][1], 1) << rank;
        EXPECT_NEAR(t.non_compute_ns / 1000.0, temporal[rank][2], 1) << rank;
        EXPECT_NEAR(t.window_ns / 1000.0, temporal[rank][3], 1) << rank;
    }
    const Trace trace = load("distributed_hta/rank-0.json.gz");
    const IdleBreakdown idle = idleBreakdown(trace, htaActivity(trace));
    EXPECT_EQ(idle.streams.size(), 5u); // 23, 84, 25, 7, 203
    EXPECT_NEAR(stream(idle, 23).idle_ns[kHost] / 1000.0, 596037, 1);
    EXPECT_NEAR(stream(idle, 23).idle_ns[kKernel] / 1000.0, 70, 1);
    EXPECT_NEAR(stream(idle, 23).idle_ns[kOther] / 1000.0, 34, 1);
    EXPECT_NEAR(stream(idle, 7).idle_ns[kHost] / 1000.0, 213825, 1);
    EXPECT_NEAR(stream(idle, 7).idle_ns[kKernel] / 1000.0, 1985, 1);
    EXPECT_NEAR(stream(idle, 7).idle_ns[kOther] / 1000.0, 261740, 1);
    EXPECT_NEAR(stream(idle, 25).idle_ns[kOther] / 1000.0, 47865, 1);
    // describe(): host_wait on stream 7, 82 gaps, mean 2607.62, std 7641.6,
    // quartiles 61 / 129.5 / 1285.25, max 56614.
    const IntervalStats& h = stream(idle, 7).intervals[kHost];
    EXPECT_EQ(h.count, 82);
    EXPECT_NEAR(h.mean / 1000, 2607.62, 0.005);
    EXPECT_NEAR(h.std / 1000, 7641.6, 0.005);
    EXPECT_NEAR(h.p25 / 1000, 61, 0.005);
    EXPECT_NEAR(h.p50 / 1000, 129.5, 0.005);
    EXPECT_NEAR(h.p75 / 1000, 1285.25, 0.005);
    EXPECT_NEAR(h.max / 1000, 56614, 0.005);
    EXPECT_EQ(stream(idle, 7).intervals[kKernel].count, 196);
    EXPECT_EQ(stream(idle, 7).intervals[kOther].count, 247);
}

// HTA on tests/data/h100/resnet50_bs64_bf16 (nanosecond times: HTA rounds).
TEST(IdleTime, H100ResNetAsHta) {
    const Trace trace = load("h100/resnet50_bs64_bf16.pt.trace.json.gz");
    const DeviceActivities activity = htaActivity(trace);
    const TemporalBreakdown t = temporalBreakdown(activity);
    EXPECT_NEAR(t.idle_ns / 1000.0, 65727, 1);
    EXPECT_NEAR(t.compute_ns / 1000.0, 57575, 1);
    EXPECT_NEAR(t.non_compute_ns / 1000.0, 48, 1);
    EXPECT_NEAR(t.window_ns / 1000.0, 123350, 1);
    const StreamIdle& s = stream(idleBreakdown(trace, activity), 7);
    EXPECT_NEAR(s.idle_ns[kHost] / 1000.0, 61754, 1);
    // HTA adds the -1 us gaps its rounding makes between touching kernels;
    // Trainscope counts an overlap as no gap.
    EXPECT_NEAR(s.idle_ns[kKernel] / 1000.0, 3602, 36);
    EXPECT_NEAR(s.idle_ns[kOther] / 1000.0, 365, 1);
    EXPECT_EQ(s.intervals[kHost].count, 917);
    EXPECT_EQ(s.intervals[kKernel].count, 1090);
    EXPECT_EQ(s.intervals[kOther].count, 5);
}

// The thresholds and rules on the trace's own times: a gap before a kernel
// launched after the previous one ended is host wait, whatever its length;
// a shorter gap than the threshold is kernel wait; longer ones are other.
TEST(IdleTime, ThresholdMovesGapsBetweenKernelWaitAndOther) {
    const Trace trace = load("h100/resnet50_bs64_bf16.pt.trace.json.gz");
    const DeviceActivities activity = collectDeviceActivity(trace);
    IdleOptions tight;
    tight.kernel_wait_ns = 1000;
    const StreamIdle wide = stream(idleBreakdown(trace, activity), 7);
    const StreamIdle narrow = stream(idleBreakdown(trace, activity, tight), 7);
    EXPECT_EQ(wide.totalNs(), narrow.totalNs());
    EXPECT_EQ(wide.idle_ns[kHost], narrow.idle_ns[kHost]);
    EXPECT_LT(narrow.idle_ns[kKernel], wide.idle_ns[kKernel]);
    EXPECT_GT(narrow.idle_ns[kOther], wide.idle_ns[kOther]);
    // Each gap is kept for the timeline, with its cause, and adds up.
    int64_t gaps = 0;
    for (const IdleGap& g : idleBreakdown(trace, activity).gaps)
        if (trace.lanes[size_t(g.lane)].stream == 7) gaps += g.end - g.start;
    EXPECT_EQ(gaps, wide.totalNs());
}

// A stream whose first event is a synchronisation ("Stream Wait Event",
// cuda_sync) is still a GPU stream: its kernels are device work (HTA's
// critical_path/cuda_event_sync_multi_stream; the reader made it a CPU
// thread until this was compared with HTA).
TEST(IdleTime, StreamOpenedBySyncIsAGpuStream) {
    const Trace trace = load("hta/critical_path_cuda_event_sync_multi_stream.json.gz");
    const IdleBreakdown idle = idleBreakdown(trace, htaActivity(trace));
    ASSERT_EQ(idle.streams.size(), 3u);
    EXPECT_EQ(stream(idle, 24).idle_ns[kKernel], 15000);
    EXPECT_TRUE(trace.lanes[size_t(stream(idle, 24).lane)].device);
    const TemporalBreakdown t = temporalBreakdown(htaActivity(trace));
    EXPECT_EQ(t.window_ns, 19506000);
    EXPECT_EQ(t.compute_ns, 369000);
}

// With the GPU analysis at hand, its launch links are reused: the same figures.
TEST(IdleTime, DiagnosesFromTheAnalysisLinksAreTheSame) {
    const Trace trace = load("h100/resnet50_bs64_bf16.pt.trace.json.gz");
    const GpuTraceAnalysis analysis = analyzeGpuTrace(trace);
    const GpuDiagnoses own = diagnoseGpu(trace), reused = diagnoseGpu(trace, &analysis);
    EXPECT_EQ(reused.activity.events.size(), own.activity.events.size());
    EXPECT_EQ(reused.temporal.idle_ns, own.temporal.idle_ns);
    EXPECT_EQ(reused.idle.streams[0].idle_ns, own.idle.streams[0].idle_ns);
    EXPECT_EQ(reused.launches.launches.size(), own.launches.launches.size());
    EXPECT_EQ(reused.launches.delay.total, own.launches.delay.total);
}

TEST(IdleTime, TraceWithoutDeviceWorkSaysSo) {
    const Trace trace = load("torch_profiler_sample.json"); // CPU only
    const GpuDiagnoses d = diagnoseGpu(trace);
    EXPECT_TRUE(d.activity.empty());
    EXPECT_EQ(d.temporal.window_ns, 0);
    EXPECT_TRUE(d.idle.streams.empty());
    ASSERT_FALSE(activityNotes(d.activity).empty());
    EXPECT_NE(activityNotes(d.activity)[0].find("no kernels"), std::string::npos);
}

TEST(IdleTables, JsonKeysCarryTheirUnits) {
    const Trace trace = load("kineto_call_stacks.json");
    const GpuDiagnoses d = diagnoseGpu(trace);
    const nlohmann::json temporal = temporalJson({d.temporal});
    EXPECT_DOUBLE_EQ(temporal["ranks"][0]["idle_us"].get<double>(), 75);
    EXPECT_DOUBLE_EQ(temporal["ranks"][0]["kernel_us"].get<double>(), 103);
    EXPECT_NEAR(temporal["ranks"][0]["idle_pct"].get<double>(), 72.82, 0.005);
    const nlohmann::json idle = idleJson({d.idle});
    EXPECT_DOUBLE_EQ(idle["kernel_wait_threshold_us"].get<double>(), 30);
    const nlohmann::json& s = idle["ranks"][0]["streams"][0];
    EXPECT_EQ(s["stream"], 7);
    EXPECT_DOUBLE_EQ(s["host_wait_us"].get<double>(), 75);
    EXPECT_EQ(s["intervals"]["host_wait"]["count"], 1);
    EXPECT_TRUE(s["intervals"]["host_wait"]["std_us"].is_null());
    EXPECT_EQ(s["intervals"]["kernel_wait"], nlohmann::json({{"count", 0}}));
}

} // namespace
} // namespace ts
