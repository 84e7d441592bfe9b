// The timeline's derived rows: counters (memory) and busy tracks (GPU
// utilization) answer per pixel column; launch links both ways; step spans
// on the device.
#include <algorithm>
#include <climits>

#include <gtest/gtest.h>

#include "TestPaths.h"
#include "analysis/TimelineTracks.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

// The fixture: one step launching two kernels (one through a nested runtime
// call of an operator), a kernel launched outside any step, GPU and CPU
// memory instants.
Trace readFixture() {
    return readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/timeline_launches.json");
}

int32_t find(const Trace& t, const std::string& name) {
    for (size_t i = 0; i < t.events.size(); ++i)
        if (t.nameOf(t.events[i]) == name) return static_cast<int32_t>(i);
    return -1;
}

TEST(CounterSeries, MaxOverAColumnIncludesTheValueInEffectAtItsStart) {
    CounterSeries s;
    for (int i = 0; i < 1000; ++i)
        s.add(i * 10, double(i % 100)); // saw tooth 0..99
    s.finish();
    double v = -1;
    ASSERT_TRUE(s.maxOver(5, 6, v)); // inside the first sample's hold
    EXPECT_EQ(v, 0);
    ASSERT_TRUE(s.maxOver(15, 40, v)); // samples 1..3 in effect
    EXPECT_EQ(v, 3);
    ASSERT_TRUE(s.maxOver(0, 10000, v)); // spans blocks: read through block maxima
    EXPECT_EQ(v, 99);
    ASSERT_TRUE(s.maxOver(1005, 1400, v)); // samples 100..139 -> values 0..39
    EXPECT_EQ(v, 39);
    EXPECT_FALSE(s.maxOver(-50, -1, v)); // before the first sample
    EXPECT_EQ(s.peak(), 99);
    EXPECT_EQ(s.peakTime(), 990);
}

TEST(CounterSeries, BlockMaximaAgreeWithABruteForceScan) {
    CounterSeries s;
    std::vector<double> values;
    uint32_t x = 12345;
    for (int i = 0; i < 5000; ++i) {
        x = x * 1103515245u + 12345u;
        values.push_back(double((x >> 8) % 10000));
        s.add(i, values.back());
    }
    s.finish();
    for (int64_t t0 = 0; t0 < 5000; t0 += 97)
        for (int64_t len : {1, 7, 64, 65, 300, 2000}) {
            const int64_t t1 = std::min<int64_t>(5000, t0 + len);
            double expected = 0;
            for (int64_t i = t0; i < t1; ++i)
                expected = std::max(expected, values[size_t(i)]);
            double v = -1;
            ASSERT_TRUE(s.maxOver(t0, t1, v));
            EXPECT_EQ(v, expected) << t0 << " " << len;
        }
}

TEST(BusyTrack, FractionOfAColumnThatIsBusy) {
    const BusyTrack busy({{10, 20}, {15, 30}, {50, 60}}); // merged: [10,30) [50,60)
    EXPECT_EQ(busy.busyWithin(0, 100), 30);
    EXPECT_EQ(busy.busyWithin(20, 55), 15);
    EXPECT_EQ(busy.busyWithin(30, 50), 0);
    EXPECT_EQ(busy.busyWithin(70, 80), 0);
    EXPECT_DOUBLE_EQ(busy.fraction(10, 30), 1.0);
    EXPECT_DOUBLE_EQ(busy.fraction(0, 40), 0.5);
    EXPECT_DOUBLE_EQ(busy.fraction(5, 5), 0.0);
}

TEST(TimelineTracks, LaunchLinksBothWays) {
    const Trace t = readFixture();
    const TimelineTracks tracks = buildTimelineTracks(t);
    const int32_t gemm = find(t, "gemm"), relu = find(t, "relu"), mm = find(t, "aten::mm");
    ASSERT_GE(gemm, 0);
    ASSERT_EQ(tracks.launches.size(), 3u);
    const int32_t launch = tracks.launches.launcherOf(gemm);
    ASSERT_GE(launch, 0);
    EXPECT_EQ(t.nameOf(t.events[size_t(launch)]), "cudaLaunchKernel");
    EXPECT_EQ(tracks.launches.launcherOf(mm), -1);
    // The operator stands for the launch nested in it; the step for both of its launches.
    const auto of_mm = tracks.launches.linksFor(t, mm, 100);
    ASSERT_EQ(of_mm.size(), 1u);
    EXPECT_EQ(of_mm[0], (LaunchPair{launch, gemm}));
    size_t total = 0;
    const auto of_step = tracks.launches.linksFor(t, find(t, "ProfilerStep#3"), 1, &total);
    EXPECT_EQ(total, 2u);
    EXPECT_EQ(of_step.size(), 1u); // limited
    const auto of_relu = tracks.launches.linksFor(t, relu, 100);
    ASSERT_EQ(of_relu.size(), 1u);
    EXPECT_EQ(of_relu[0].second, relu);
}

TEST(TimelineTracks, StepSpanOnTheDeviceCoversTheWorkItLaunched) {
    const Trace t = readFixture();
    const TimelineTracks tracks = buildTimelineTracks(t);
    ASSERT_EQ(tracks.steps.size(), 1u);
    const StepSpan& s = tracks.steps[0];
    EXPECT_EQ(s.step, 3);
    EXPECT_EQ(s.host_end - s.host_start, 100000);
    ASSERT_TRUE(s.hasDevice());
    // gemm (80..120 us) and relu (130..140 us); "late" was launched after the step.
    EXPECT_EQ(s.device_start - s.host_start, 80000);
    EXPECT_EQ(s.device_end - s.host_start, 140000);
}

TEST(TimelineTracks, GpuUtilizationAndMemoryRows) {
    const Trace t = readFixture();
    const TimelineTracks tracks = buildTimelineTracks(t);
    ASSERT_EQ(tracks.gpus.size(), 1u);
    EXPECT_EQ(tracks.gpus[0].gpu, 0);
    EXPECT_EQ(totalLength(tracks.gpus[0].busy.ranges()), 70000); // 40 + 10 + 20 us
    // GPU rows first; the CPU instant once (the reader keeps it in two tables).
    ASSERT_EQ(tracks.memory.size(), 2u);
    const MemoryRow& m = tracks.memory[0];
    EXPECT_EQ(m.label, "GPU 0 memory");
    EXPECT_EQ(m.allocated.size(), 3u);
    EXPECT_EQ(m.allocated.peak(), 3000);
    EXPECT_EQ(m.reserved.peak(), 4000);
    EXPECT_FALSE(m.from_deltas);
    EXPECT_EQ(tracks.memory[1].label, "CPU memory");
    EXPECT_EQ(tracks.memory[1].allocated.peak(), 640);
    EXPECT_EQ(tracks.counterRows(), 3u);
}

// Instants out of time order and two devices taking turns: each device's
// row is in time order (the reader keeps them sorted; the rows must not rely
// on it), and the split into the building halves gives the same rows.
TEST(TimelineTracks, MemoryRowsOfInstantsOutOfOrderFromDevicesTakingTurns) {
    Trace t;
    const auto instant = [](int64_t t_ns, int type, int id, int64_t total) {
        DeviceMemoryEvent m;
        m.t_ns = t_ns;
        m.device_type = int8_t(type);
        m.device_id = int16_t(id);
        m.bytes = 1;
        m.total_allocated = total;
        m.total_reserved = total * 2;
        return m;
    };
    t.kineto.memory = {instant(30, 0, -1, 300), instant(10, 1, 0, 1000), instant(20, 0, -1, 200),
                       instant(5, 1, 0, 500),   instant(40, 1, 1, 7),    instant(25, 1, 0, 2500),
                       instant(1, 0, -1, 100)};
    const TimelineTracks tracks = buildTimelineTracks(t);
    ASSERT_EQ(tracks.memory.size(), 3u);
    const auto times = [](const CounterSeries& s) {
        std::vector<std::pair<int64_t, double>> out;
        for (size_t i = 0; i < s.size(); ++i)
            out.emplace_back(s.timeAt(i), s.valueAt(i));
        return out;
    };
    using Samples = std::vector<std::pair<int64_t, double>>;
    EXPECT_EQ(tracks.memory[0].label, "GPU 0 memory");
    EXPECT_EQ(times(tracks.memory[0].allocated), (Samples{{5, 500}, {10, 1000}, {25, 2500}}));
    EXPECT_EQ(times(tracks.memory[0].reserved), (Samples{{5, 1000}, {10, 2000}, {25, 5000}}));
    EXPECT_EQ(tracks.memory[0].allocated.peak(), 2500);
    EXPECT_EQ(tracks.memory[1].label, "GPU 1 memory");
    EXPECT_EQ(times(tracks.memory[1].allocated), (Samples{{40, 7}}));
    EXPECT_EQ(tracks.memory[2].label, "CPU memory");
    EXPECT_EQ(times(tracks.memory[2].allocated), (Samples{{1, 100}, {20, 200}, {30, 300}}));

    TimelineTracks halves = buildTimelineCounters(t);
    addTimelineLaunches(halves, t);
    ASSERT_EQ(halves.memory.size(), tracks.memory.size());
    for (size_t i = 0; i < halves.memory.size(); ++i) {
        EXPECT_EQ(halves.memory[i].label, tracks.memory[i].label);
        EXPECT_EQ(times(halves.memory[i].allocated), times(tracks.memory[i].allocated));
    }
    EXPECT_EQ(halves.steps.size(), tracks.steps.size());
}

// Real GPU traces (H100, the HTA NCCL rank): the launch index sorted by
// counting agrees with a plain search per event, both ways, and the step
// spans with those found by asking every event for its launcher.
TEST(TimelineTracks, LaunchIndexAndStepSpansAgreeWithAPlainSearchOnGpuTraces) {
    for (const char* name :
         {"/h100/resnet50_bs64_bf16.pt.trace.json.gz", "/h100/gpt_decoder_bf16.pt.trace.json.gz",
          "/distributed_hta/rank-0.json.gz"}) {
        SCOPED_TRACE(name);
        const Trace t = readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + name);
        const TimelineTracks tracks = buildTimelineTracks(t);
        ASSERT_FALSE(tracks.launches.empty());
        size_t launched = 0;
        std::vector<StepSpan> expected;
        for (const StepMark& s : t.steps)
            expected.push_back(StepSpan{s.step, s.start_ns, s.end_ns, INT64_MAX, INT64_MIN});
        std::sort(expected.begin(), expected.end(),
                  [](const StepSpan& a, const StepSpan& b) { return a.host_start < b.host_start; });
        for (size_t i = 0; i < t.events.size(); ++i) {
            const int32_t runtime = tracks.launches.launcherOf(int32_t(i));
            if (runtime < 0) continue;
            ++launched;
            // The runtime call's own links name this event.
            const std::vector<LaunchPair> by_call = tracks.launches.linksFor(t, runtime, 1 << 20);
            EXPECT_NE(std::find(by_call.begin(), by_call.end(), LaunchPair{runtime, int32_t(i)}),
                      by_call.end());
            // The step begun last at or before the launch, if it is still open.
            const int64_t at = t.events.core(size_t(runtime)).start_ns;
            StepSpan* step = nullptr;
            for (StepSpan& s : expected)
                if (s.host_start <= at) step = &s;
            if (step && at < step->host_end) {
                step->device_start = std::min(step->device_start, t.events.core(i).start_ns);
                step->device_end = std::max(step->device_end, t.events.core(i).end_ns());
            }
        }
        EXPECT_EQ(launched, tracks.launches.size());
        for (StepSpan& s : expected)
            if (!s.hasDevice()) {
                s.device_start = 0;
                s.device_end = -1;
            }
        ASSERT_EQ(tracks.steps.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            EXPECT_EQ(tracks.steps[i].step, expected[i].step);
            EXPECT_EQ(tracks.steps[i].device_start, expected[i].device_start);
            EXPECT_EQ(tracks.steps[i].device_end, expected[i].device_end);
        }
    }
}

TEST(TimelineTracks, OwnTracesGetTheirCpuMemoryRowAndNoGpuRows) {
    Trace t;
    t.memory = {{0, 100, 100, -1}, {10, 300, 200, -1}, {20, 50, -250, -1}};
    const TimelineTracks tracks = buildTimelineTracks(t);
    EXPECT_TRUE(tracks.gpus.empty());
    ASSERT_EQ(tracks.memory.size(), 1u);
    EXPECT_EQ(tracks.memory[0].label, "CPU memory");
    EXPECT_EQ(tracks.memory[0].allocated.peak(), 300);
    EXPECT_TRUE(tracks.memory[0].reserved.empty());
    EXPECT_TRUE(tracks.launches.empty());
}

TEST(TimelineTracks, MemoryWithoutTotalsIsTheNetChange) {
    // Older Kineto traces (2021) record only "Bytes": the row sums them.
    const Trace t = parseChromeTrace(R"json({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 0, "dur": 50},
      {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 1, "s": "t",
       "args": {"Device Type": 1, "Device Id": 0, "Bytes": 100}},
      {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 2, "s": "t",
       "args": {"Device Type": 1, "Device Id": 0, "Bytes": 300}},
      {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 3, "s": "t",
       "args": {"Device Type": 1, "Device Id": 0, "Bytes": -350}}]})json",
                                     "old.json");
    const TimelineTracks tracks = buildTimelineTracks(t);
    ASSERT_EQ(tracks.memory.size(), 1u);
    EXPECT_TRUE(tracks.memory[0].from_deltas);
    EXPECT_EQ(tracks.memory[0].allocated.peak(), 400);
    EXPECT_EQ(tracks.memory[0].allocated.valueAt(2), 50);
    EXPECT_TRUE(tracks.memory[0].reserved.empty());
    EXPECT_EQ(tracks.memory[0].allocated.lowest(), 0); // never below the start here
}

TEST(CounterSeries, LowestCoversNetChangesThatStartWithFrees) {
    CounterSeries s;
    s.add(0, -500);
    s.add(10, 200);
    s.finish();
    EXPECT_EQ(s.lowest(), -500);
    EXPECT_EQ(s.peak(), 200);
}

} // namespace
} // namespace ts
