// analysis/UserAnnotations.h: Holistic Trace Analysis' user-annotation
// breakdown. Expected: HTA 0.6.1's get_gpu_user_annotation_breakdown()
// (num_kernels=1000: every name, no "others") and
// get_gpu_kernels_with_user_annotations() on these files, with HTA's
// rounding (ActivityOptions::hta_rounding, AnnotationOptions::hta_rounding).
#include <map>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/UserAnnotations.h"
#include "report/AnnotationTables.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

Trace read(const std::string& file) {
    return readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/" + file);
}

AnnotationBreakdown htaAnnotations(const Trace& trace, AnnotationSide side) {
    ActivityOptions rounding;
    rounding.hta_rounding = true;
    AnnotationOptions options;
    options.side = side;
    options.hta_rounding = true;
    return userAnnotations(trace, collectDeviceActivity(trace, rounding), options);
}

// name -> (sum, max, min, mean) in us, HTA's columns.
using Sums = std::map<std::string, std::array<double, 4>>;

Sums sums(const AnnotationBreakdown& b) {
    Sums out;
    for (const AnnotationRow& a : b.annotations)
        out[a.name] = {double(a.total_ns) / 1000, double(a.max_ns) / 1000, double(a.min_ns) / 1000,
                       a.mean_ns / 1000};
    return out;
}

// HTA's tests (ns_resolution_trace): 3 GPU rows, 12 CPU rows, and the sums
// and means of its CSVs (expected/hta_ns_resolution_trace_*).
TEST(UserAnnotations, NsResolutionTraceAsHta) {
    const Trace trace = read("hta/ns_resolution_trace.json.gz");
    const AnnotationBreakdown gpu = htaAnnotations(trace, AnnotationSide::Gpu);
    EXPECT_EQ(sums(gpu), (Sums{{"## backward ##", {81, 28, 26, 27}},
                               {"DistributedDataParallel.forward", {123880, 32432, 30399, 30970}},
                               {"Optimizer.step#SGD.step", {3334, 1114, 1109, 3334.0 / 3}}}));
    const AnnotationBreakdown cpu = htaAnnotations(trace, AnnotationSide::Cpu);
    const Sums c = sums(cpu);
    ASSERT_EQ(c.size(), 12u);
    const std::map<std::string, double> hta_cpu = {
        {"## backward ##", 184802},        {"## forward ##", 107489},
        {"## optimizer ##", 3790},         {"DistributedDataParallel.forward", 107037},
        {"Optimizer.step#SGD.step", 3668}, {"Optimizer.zero_grad#SGD.zero_grad", 838},
        {"ProfilerStep#101", 35115},       {"ProfilerStep#102", 72076},
        {"ProfilerStep#103", 95697},       {"ProfilerStep#104", 95550},
        {"nccl:all_reduce", 446},          {"nccl:broadcast", 148}};
    for (const auto& [name, sum] : hta_cpu) {
        ASSERT_TRUE(c.count(name)) << name;
        EXPECT_EQ(c.at(name)[0], sum) << name;
    }
    EXPECT_DOUBLE_EQ(c.at("nccl:all_reduce")[3], 22.3); // mean over 20
    EXPECT_EQ(annotationTable({gpu}).rows.size(), 3u + (gpu.unannotated > 0 ? 1 : 0));
}

// HTA's get_gpu_kernels_with_user_annotations test: 27 kernels under the
// optimizer, the Memcpy DtoD of correlation 135139 (ts 4067, rounded to a
// zero duration) under DistributedDataParallel.forward. HTA needs pandas 2
// for that one (pandas 3 never matches an empty interval); Trainscope counts
// an instant inside an annotation as under it. Per label, pandas 2 gives
// 2992 unannotated, 1840 forward, 27 optimizer, 17 backward.
TEST(UserAnnotations, KernelsWithAnnotationsAsHtaOnPandas2) {
    const Trace trace = read("hta/ns_resolution_trace.json.gz");
    const AnnotationBreakdown gpu = htaAnnotations(trace, AnnotationSide::Gpu);
    std::map<std::string, int64_t> kernels;
    for (const AnnotationRow& a : gpu.annotations)
        kernels[a.name] = a.kernels;
    EXPECT_EQ(kernels["Optimizer.step#SGD.step"], 27);
    EXPECT_EQ(kernels["## backward ##"], 17);
    EXPECT_EQ(kernels["DistributedDataParallel.forward"], 1840);
    EXPECT_EQ(gpu.unannotated, 2992);
}

// On the repo's H100 traces HTA's last-step rule drops ProfilerStep#4's GPU
// range (it starts at the cut) but keeps its CPU range (which starts before
// the GPU's); HTA's expected/h100_* CSVs.
TEST(UserAnnotations, H100AsHta) {
    const Trace gpt = read("h100/gpt_decoder_bf16.pt.trace.json.gz");
    const Sums gpu = sums(htaAnnotations(gpt, AnnotationSide::Gpu));
    ASSERT_EQ(gpu.size(), 3u);
    EXPECT_EQ(gpu.at("Optimizer.step#AdamW.step")[0], 14553);
    EXPECT_EQ(gpu.at("ProfilerStep#2")[0], 22819);
    EXPECT_EQ(gpu.at("ProfilerStep#3")[0], 22394);
    const Sums cpu = sums(htaAnnotations(gpt, AnnotationSide::Cpu));
    ASSERT_EQ(cpu.size(), 5u);
    EXPECT_EQ(cpu.at("Optimizer.step#AdamW.step")[0], 24344);
    EXPECT_EQ(cpu.at("Optimizer.zero_grad#AdamW.zero_grad")[0], 787);
    EXPECT_EQ(cpu.at("ProfilerStep#4")[0], 47270);
    const Sums resnet =
        sums(htaAnnotations(read("h100/resnet50_bs64_bf16.pt.trace.json.gz"), AnnotationSide::Gpu));
    ASSERT_EQ(resnet.size(), 3u);
    EXPECT_EQ(resnet.at("Optimizer.step#SGD.step")[0], 736);
    EXPECT_EQ(resnet.at("ProfilerStep#2")[0], 25934);
    EXPECT_EQ(resnet.at("ProfilerStep#3")[0], 31539);
}

// One ProfilerStep: nothing dropped (HTA's expected/hta_amd_trace_*).
TEST(UserAnnotations, AmdTraceAsHta) {
    const Trace trace = read("hta/amd_trace.json.gz");
    EXPECT_EQ(sums(htaAnnotations(trace, AnnotationSide::Gpu)),
              (Sums{{"Optimizer.step#SGD.step", {8, 8, 8, 8}},
                    {"ProfilerStep#1", {1030, 1030, 1030, 1030}}}));
    const Sums cpu = sums(htaAnnotations(trace, AnnotationSide::Cpu));
    EXPECT_EQ(cpu.at("ProfilerStep#1")[0], 9287);
    EXPECT_EQ(cpu.at("Optimizer.step#SGD.step")[0], 265);
}

// Trainscope's own figures (ns): every kernel under a GPU annotation is on
// its lane and overlaps it; the CPU side follows the launches; the JSON has
// a row per name.
TEST(UserAnnotations, LabelsAndJson) {
    const Trace trace = read("h100/gpt_decoder_bf16.pt.trace.json.gz");
    const DeviceActivities activity = collectDeviceActivity(trace);
    const AnnotationBreakdown gpu = userAnnotations(trace, activity);
    ASSERT_EQ(gpu.label.size(), activity.events.size());
    int64_t labelled = 0;
    for (size_t k = 0; k < activity.events.size(); ++k) {
        if (gpu.label[k] < 0) continue;
        ++labelled;
        const TraceEvent a = trace.events[size_t(gpu.label[k])];
        const DeviceActivity& d = activity.events[k];
        EXPECT_EQ(a.lane, d.lane);
        EXPECT_TRUE((a.start_ns <= d.start && d.start < a.end_ns()) ||
                    (d.start < a.start_ns && a.start_ns < d.end));
    }
    int64_t kernels = 0;
    for (const AnnotationRow& a : gpu.annotations)
        kernels += a.kernels;
    EXPECT_EQ(kernels, labelled);
    EXPECT_EQ(kernels + gpu.unannotated, int64_t(activity.events.size()));

    const AnnotationBreakdown cpu = userAnnotations(trace, activity, {AnnotationSide::Cpu});
    EXPECT_GT(cpu.annotations.size(), 0u);
    const nlohmann::json j = annotationsJson({cpu});
    EXPECT_EQ(j["annotations"], "cpu");
    EXPECT_EQ(j["ranks"][0]["annotations"].size(), cpu.annotations.size());
    EXPECT_TRUE(j["ranks"][0]["annotations"][0].contains("kernel_time_us"));
    const table::TableSpec table = annotationTable({gpu});
    EXPECT_EQ(table.row_events.size(), table.rows.size());
}

} // namespace
} // namespace ts
