// analysis/KernelSequences.h: Holistic Trace Analysis' frequent CUDA kernel
// sequences. Expected: HTA 0.6.1's get_frequent_cuda_kernel_sequences()
// (expected/<trace>_frequent_kernel_sequences_<op>_rank0[_minlen1].csv):
// per pattern, in HTA's order, its count, GPU and CPU time (us) and length
// (operator + kernels). HTA keeps only the matches at the shallowest call
// depth (SequenceOptions::hta_shallowest); Trainscope's own rule keeps the
// outermost match of every call stack.
#include <tuple>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "TestPaths.h"
#include "analysis/KernelSequences.h"
#include "report/KernelSequenceTables.h"
#include "trace/ChromeTraceReader.h"

namespace ts {
namespace {

using Row = std::tuple<int64_t, double, double, size_t>; // count, GPU us, CPU us, length

Trace read(const std::string& file) {
    return readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/" + file);
}

KernelSequences sequences(const Trace& trace, const std::string& op, size_t min_len,
                          bool hta = true) {
    SequenceOptions options;
    options.operator_text = op;
    options.min_pattern_len = min_len;
    options.hta_shallowest = hta;
    return kernelSequences(trace, collectDeviceActivity(trace), options);
}

std::vector<Row> rows(const KernelSequences& s) {
    std::vector<Row> out;
    for (const KernelSequence& q : s.sequences)
        out.emplace_back(q.count, double(q.gpu_ns) / 1000, double(q.cpu_ns) / 1000,
                         q.kernels.size() + 1);
    return out;
}

TEST(KernelSequences, KinetoCallStacksAsHta) {
    const Trace trace = read("kineto_call_stacks.json");
    const KernelSequences linear = sequences(trace, "aten::linear", 1);
    EXPECT_EQ(rows(linear), (std::vector<Row>{{2, 28, 90, 2}}));
    EXPECT_EQ(linear.sequences[0].pattern(), "aten::linear|ampere_sgemm_32x32_sliced1x4_tn");
    EXPECT_EQ(rows(sequences(trace, "aten::addmm", 1)), (std::vector<Row>{{2, 28, 50, 2}}));
    EXPECT_TRUE(sequences(trace, "aten::linear", 3).empty()); // HTA's default: none
}

TEST(KernelSequences, AlexnetAsHta) {
    const Trace trace = read("hta/critical_path_alexnet.json.gz");
    EXPECT_EQ(rows(sequences(trace, "aten::linear", 1)),
              (std::vector<Row>{{4, 2456, 11621, 3}, {2, 208, 10652, 4}}));
    EXPECT_EQ(rows(sequences(trace, "aten::addmm", 3)), (std::vector<Row>{{2, 208, 10636, 4}}));
    // HTA lists two calls of one sequence apart, {1, 750, 14972, 16} and
    // {1, 735, 1049310, 16}: it adds the stream waits linked to the call
    // (10 us of them), whose order among equal start times its sort leaves
    // to chance. Trainscope lists the work alone, once for both calls.
    EXPECT_EQ(rows(sequences(trace, "aten::conv2d", 3)),
              (std::vector<Row>{{6, 2403, 5034, 5},
                                {2, 750 + 735 - 10, 14972 + 1049310, 6},
                                {1, 1230, 10841225, 5},
                                {1, 1225, 8825, 4}}));
}

TEST(KernelSequences, MultiStreamAsHta) {
    const Trace trace = read("hta/critical_path_cuda_event_sync_multi_stream.json.gz");
    const KernelSequences mm = sequences(trace, "aten::mm", 1);
    EXPECT_EQ(rows(mm), (std::vector<Row>{{3, 372, 1054, 3}}));
    EXPECT_EQ(mm.sequences[0].pattern(), "aten::mm|Memset (Device)|ampere_sgemm_128x64_nn");
}

// HTA's aten::add_ on distributed_hta rank 0 counts only the 8 calls at the
// shallowest depth (of 19 at depths 2 to 5).
TEST(KernelSequences, ShallowestAsHtaOutermostOtherwise) {
    const Trace trace = read("distributed_hta/rank-0.json.gz");
    const KernelSequences hta = sequences(trace, "aten::add_", 1);
    int64_t calls = 0;
    for (const KernelSequence& s : hta.sequences)
        calls += s.count;
    EXPECT_EQ(calls, 8);
    ASSERT_EQ(hta.sequences.size(), 4u);
    EXPECT_EQ(rows(hta)[0], (Row{3, 9, 36, 2}));
    // Trainscope: every outermost aten::add_ call.
    const KernelSequences own = sequences(trace, "aten::add_", 1, false);
    int64_t own_calls = 0;
    for (const KernelSequence& s : own.sequences)
        own_calls += s.count;
    EXPECT_GT(own_calls, calls);
}

// Without an operator: every outermost CPU operator, HTA's min_pattern_len.
TEST(KernelSequences, EveryOperatorAndTables) {
    const Trace trace = read("h100/gpt_decoder_bf16.pt.trace.json.gz");
    const DeviceActivities activity = collectDeviceActivity(trace);
    const KernelSequences all = kernelSequences(trace, activity);
    ASSERT_FALSE(all.empty());
    for (size_t i = 0; i + 1 < all.sequences.size(); ++i) {
        const KernelSequence &a = all.sequences[i], &b = all.sequences[i + 1];
        EXPECT_TRUE(a.count > b.count || (a.count == b.count && a.pattern() < b.pattern()));
        EXPECT_GE(a.kernels.size(), 3u);
        EXPECT_GE(a.span_ns, 0);
    }
    const table::TableSpec table = kernelSequenceTable({all});
    EXPECT_EQ(table.rows.size(), all.sequences.size());
    EXPECT_EQ(table.row_events.size(), table.rows.size());
    size_t positions = 0;
    for (const KernelSequence& s : all.sequences)
        positions += s.kernels.size();
    EXPECT_EQ(sequenceKernelTable({all}).rows.size(), positions);
    const nlohmann::json j = kernelSequencesJson({all});
    EXPECT_EQ(j["min_pattern_len"], 3);
    EXPECT_EQ(j["ranks"][0]["sequences"][0]["pattern"], all.sequences[0].pattern());
    EXPECT_EQ(j["ranks"][0]["sequences"][0]["kernels"].size(), all.sequences[0].kernels.size());
}

} // namespace
} // namespace ts
