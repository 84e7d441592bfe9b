// The Chrome trace reader on torch.profiler (Kineto) traces: event kinds by
// category and name, GPU lanes, and the side tables the GPU views need.
#include <gtest/gtest.h>

#include <sstream>

#include "analysis/OpStats.h"
#include "trace/ChromeTraceReader.h"
#include "trace/ChromeTraceWriter.h"

namespace ts {
namespace {

const char* kKinetoTrace = R"json({
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "Tesla V100-DGXS-32GB", "totalGlobalMem": 34084028416,
                        "computeMajor": 7, "computeMinor": 0, "numSms": 80,
                        "maxThreadsPerMultiProcessor": 2048}],
  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},
  "traceEvents": [
    {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": 1, "tid": 1, "ts": 0, "dur": 500},
    {"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#5", "pid": 1, "tid": 1, "ts": 10, "dur": 400,
     "args": {"External id": 1}},
    {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
     "pid": 1, "tid": 1, "ts": 20, "dur": 30, "args": {"External id": 2}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 60, "dur": 100,
     "args": {"External id": 3, "Input Dims": [[2, 3], [3, 4]], "Call stack": "train.py(12): step"}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 70, "dur": 10,
     "args": {"External id": 3, "correlation": 9}},
    {"ph": "X", "cat": "kernel", "name": "volta_sgemm_64x64_nt", "pid": 0, "tid": "stream 7", "ts": 100, "dur": 50,
     "args": {"External id": 3, "correlation": 9, "device": 0, "stream": 7, "grid": [16, 2, 1],
              "block": [256, 1, 1], "registers per thread": 126, "shared memory": 8192,
              "blocks per SM": 0.4, "est. achieved occupancy %": 12}},
    {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": "stream 7", "ts": 160, "dur": 2,
     "args": {"device": 0, "correlation": 10}},
    {"ph": "X", "cat": "cpu_op", "name": "Optimizer.step#SGD.step", "pid": 1, "tid": 1, "ts": 200, "dur": 20},
    {"ph": "X", "cat": "python_function", "name": "nn.Module: Linear_0", "pid": 1, "tid": 1, "ts": 55, "dur": 110,
     "args": {"Python id": 4, "Python parent id": 1, "Python module id": 0}},
    {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 65, "s": "t",
     "args": {"Device Type": 1, "Device Id": 0, "Addr": 1234, "Bytes": 512,
              "Total Allocated": 4096, "Total Reserved": 8192}}
  ]})json";

int32_t find(const Trace& t, const std::string& name) {
    for (size_t i = 0; i < t.events.size(); ++i)
        if (t.nameOf(t.events[i]) == name) return static_cast<int32_t>(i);
    return -1;
}

TEST(KinetoReader, KindsByCategoryThenName) {
    const Trace t = parseChromeTrace(kKinetoTrace, "kineto.json");
    EXPECT_EQ(t.events[find(t, "PyTorch Profiler (0)")].kind, EventKind::ProfilerRange);
    EXPECT_EQ(t.events[find(t, "ProfilerStep#5")].kind, EventKind::ProfilerStep);
    EXPECT_EQ(t.events[find(t, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__")].kind,
              EventKind::DataLoader);
    EXPECT_EQ(t.events[find(t, "aten::mm")].kind, EventKind::Operator);
    EXPECT_EQ(t.events[find(t, "cudaLaunchKernel")].kind, EventKind::Runtime);
    EXPECT_EQ(t.events[find(t, "volta_sgemm_64x64_nt")].kind, EventKind::Kernel);
    EXPECT_EQ(t.events[find(t, "Memset (Device)")].kind, EventKind::Memset);
    EXPECT_EQ(t.events[find(t, "Optimizer.step#SGD.step")].kind, EventKind::Annotation);
    EXPECT_EQ(find(t, "nn.Module: Linear_0"), -1); // python_function: a frame, no event
    EXPECT_EQ(t.categoryOf(find(t, "cudaLaunchKernel")), KinetoCategory::Runtime);
    ASSERT_EQ(t.steps.size(), 1u);
    EXPECT_EQ(t.steps[0].step, 5);
}

TEST(KinetoReader, GpuLanesAndLaunchProperties) {
    const Trace t = parseChromeTrace(kKinetoTrace, "kineto.json");
    const int32_t kernel = find(t, "volta_sgemm_64x64_nt");
    const TraceLane& lane = t.lanes[t.events[kernel].lane];
    EXPECT_TRUE(lane.device);
    EXPECT_EQ(lane.gpu, 0);
    EXPECT_EQ(lane.stream, 7);
    EXPECT_EQ(lane.name, "GPU 0 stream 7");
    const std::optional<DeviceLaunch> launch = t.launchOf(kernel);
    ASSERT_TRUE(launch.has_value());
    EXPECT_EQ(launch->device, 0);
    EXPECT_EQ(launch->grid, (std::array<int32_t, 3>{16, 2, 1}));
    EXPECT_EQ(launch->block, (std::array<int32_t, 3>{256, 1, 1}));
    EXPECT_EQ(launch->registers, 126);
    EXPECT_EQ(launch->shared_memory, 8192);
    EXPECT_FLOAT_EQ(launch->blocks_per_sm, 0.4f);
    EXPECT_FLOAT_EQ(launch->occupancy, 12.0f);
    const std::optional<EventIds> ids = t.idsOf(kernel);
    ASSERT_TRUE(ids.has_value());
    EXPECT_EQ(ids->correlation, 9);
    EXPECT_EQ(ids->external_id, 3);
    EXPECT_EQ(t.idsOf(find(t, "cudaLaunchKernel"))->correlation, 9);
}

TEST(KinetoReader, DevicePropertiesMemoryDistributedInfoAndFrames) {
    const Trace t = parseChromeTrace(kKinetoTrace, "kineto.json");
    ASSERT_EQ(t.kineto.devices.size(), 1u);
    EXPECT_EQ(t.kineto.devices[0].name, "Tesla V100-DGXS-32GB");
    EXPECT_EQ(t.kineto.devices[0].total_global_mem, 34084028416);
    EXPECT_EQ(t.kineto.devices[0].compute_major, 7);
    EXPECT_EQ(t.kineto.devices[0].num_sms, 80);
    ASSERT_EQ(t.kineto.memory.size(), 1u);
    EXPECT_EQ(t.kineto.memory[0].device_type, 1);
    EXPECT_EQ(t.kineto.memory[0].addr, 1234);
    EXPECT_EQ(t.kineto.memory[0].bytes, 512);
    EXPECT_EQ(t.kineto.memory[0].total_allocated, 4096);
    EXPECT_EQ(t.kineto.memory[0].total_reserved, 8192);
    EXPECT_EQ(t.kineto.memory[0].t_ns, 65000);
    EXPECT_NE(t.kineto.distributed_info.find("\"world_size\":2"), std::string::npos);
    ASSERT_EQ(t.kineto.python_frames.size(), 1u);
    EXPECT_EQ(t.kineto.python_frames[0].module_id, 0);
    size_t with_stack = 0;
    for (size_t i = 0; i < t.events.size(); ++i)
        with_stack += t.callStackOf(int32_t(i)).empty() ? 0 : 1;
    EXPECT_EQ(with_stack, 1u);
    EXPECT_EQ(t.callStackOf(find(t, "aten::mm")), "train.py(12): step");
}

// Runtime calls, steps, the profiler's range and the DataLoader are no
// operators in the operator table.
TEST(KinetoReader, OperatorTableLeavesOutRuntimeCallsAndAnnotations) {
    const Trace t = parseChromeTrace(kKinetoTrace, "kineto.json");
    const OpTable table = computeOpStats(t);
    for (const OpStat& r : table.rows) {
        EXPECT_NE(r.name, "cudaLaunchKernel");
        EXPECT_NE(r.name, "ProfilerStep#5");
        EXPECT_NE(r.name, "PyTorch Profiler (0)");
        EXPECT_EQ(r.name.find("enumerate(DataLoader)"), std::string::npos);
    }
    // The kernel's time goes to aten::mm ("external id" spelled the GPU way).
    bool found = false;
    for (const OpStat& r : table.rows)
        if (r.name == "aten::mm") {
            found = true;
            EXPECT_EQ(r.self_device_ns, 50000);
        }
    EXPECT_TRUE(found);
}

// Trainscope's own traces keep their kinds through the writer and reader,
// the new kinds included.
TEST(KinetoReader, NewKindsRoundTripThroughTrainscopesWriter) {
    Trace t;
    const int32_t cpu = t.laneFor(1, false, "main");
    const int32_t gpu = t.laneFor(7, true, "CUDA stream 7");
    auto add = [&](const char* name, EventKind kind, int32_t lane, int64_t start) {
        TraceEvent e;
        e.name = t.internName(name);
        e.kind = kind;
        e.lane = lane;
        e.start_ns = start;
        e.dur_ns = 1000;
        t.events.push_back(e);
    };
    add("cudaLaunchKernel", EventKind::Runtime, cpu, 0);
    add("nccl:all_reduce", EventKind::Communication, cpu, 2000);
    add("ncclKernel_AllReduce", EventKind::Communication, gpu, 3000);
    add("Memset (Device)", EventKind::Memset, gpu, 5000);
    t.finalize();
    std::ostringstream out;
    writeChromeTrace(t, out);
    const Trace back = parseChromeTrace(out.str(), "roundtrip.json");
    ASSERT_EQ(back.events.size(), 4u);
    EXPECT_EQ(back.events[find(back, "cudaLaunchKernel")].kind, EventKind::Runtime);
    EXPECT_EQ(back.events[find(back, "nccl:all_reduce")].kind, EventKind::Communication);
    EXPECT_EQ(back.events[find(back, "ncclKernel_AllReduce")].kind, EventKind::Communication);
    EXPECT_TRUE(back.lanes[back.events[find(back, "ncclKernel_AllReduce")].lane].device);
    EXPECT_EQ(back.events[find(back, "Memset (Device)")].kind, EventKind::Memset);
    EXPECT_EQ(back.lanes[back.events[find(back, "Memset (Device)")].lane].gpu, -1);
    for (EventKind k :
         {EventKind::Runtime, EventKind::Memset, EventKind::Communication, EventKind::DataLoader,
          EventKind::ProfilerStep, EventKind::ProfilerRange, EventKind::Python})
        EXPECT_EQ(eventKindFromString(toString(k)), k);
}

TEST(KinetoReader, MalformedInputStillNamesTheFile) {
    EXPECT_THROW(parseChromeTrace(R"({"traceEvents": [{"ph": "X", "cat": "kernel")", "bad.json"),
                 TraceReadError);
    try {
        parseChromeTrace(R"({"traceEvents": []})", "empty.json");
        FAIL();
    } catch (const TraceReadError& e) {
        EXPECT_NE(std::string(e.what()).find("empty.json"), std::string::npos);
    }
}

} // namespace
} // namespace ts
