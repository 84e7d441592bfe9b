// Roofline maths, the Nsight Compute CSV importer (both export layouts, units,
// thousands separators, quoted kernel names) and the peak micro-benchmarks.
#include <fstream>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "analysis/NcuCsv.h"
#include "analysis/Roofline.h"
#include "report/RooflineReport.h"
#include "runners/PeakBenchmark.h"

namespace {

ts::MachinePeaks peaks() {
    ts::MachinePeaks p;
    p.fp32_gflops = 100; // ridge at 100 / 20 = 5 FLOP/byte
    p.bandwidth_gbs = 20;
    p.low_gflops = 400; // ridge at 20
    p.low_precision = "bf16";
    p.device = "test";
    p.source = "entered";
    return p;
}

ts::KernelCost cost(const std::string& name, double flops, double bytes, double ns,
                    bool low = false) {
    return {name, 1, flops, bytes, ns, low};
}

std::filesystem::path writeFile(const std::string& name, const std::string& text) {
    const auto path = ts::test::freshDir("roofline_files") / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A `ncu --csv --page raw` export: preamble, header, units row, three launches.
const char* kRawExport =
    "==PROF== Connected to process 4242 (/usr/bin/python3.10)\n"
    "==PROF== Disconnected from process 4242\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
    "\"dram__bytes.sum\",\"gpu__time_duration.sum\","
    "\"sm__sass_thread_inst_executed_op_fadd_pred_on.sum\","
    "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\","
    "\"sm__sass_thread_inst_executed_op_fmul_pred_on.sum\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Mbyte\",\"usecond\",\"inst\",\"inst\",\"inst\"\n"
    "\"0\",\"4242\",\"python3.10\",\"127.0.0.1\",\"void add_kernel<float, 4>(float*, int)\",\"1\","
    "\"7\",\"12.58\",\"10.5\",\"1,048,576\",\"0\",\"0\"\n"
    "\"1\",\"4242\",\"python3.10\",\"127.0.0.1\",\"sgemm_128x64\",\"1\",\"7\",\"2.10\","
    "\"1,250.25\",\"1,000\",\"250,000,000\",\"500\"\n"
    "\"2\",\"4242\",\"python3.10\",\"127.0.0.1\",\"void add_kernel<float, 4>(float*, int)\",\"1\","
    "\"7\",\"12.58\",\"9.5\",\"1,048,576\",\"0\",\"0\"\n";

} // namespace

TEST(Roofline, RidgeRoofAndBoundFollowTheModel) {
    const auto p = peaks();
    EXPECT_DOUBLE_EQ(p.ridge(), 5);
    EXPECT_DOUBLE_EQ(p.ridge(true), 20);
    EXPECT_DOUBLE_EQ(ts::attainableGflops(p, 1, false), 20);
    EXPECT_DOUBLE_EQ(ts::attainableGflops(p, 50, false), 100);
    EXPECT_DOUBLE_EQ(ts::attainableGflops(p, 10, true), 200);
    const auto r = ts::buildRoofline(
        p, {cost("stream", 1e8, 4e8, 1e8),          // 0.25 FLOP/B, 1 GFLOP/s
            cost("gemm", 8e9, 1e8, 2e8),            // 80 FLOP/B, 40 GFLOP/s
            cost("bf16 conv", 1e9, 1e8, 1e7, true), // 10 FLOP/B: memory-bound on bf16 roof
            cost("unknown", 0, 1e6, 1e6)});
    ASSERT_EQ(r.points.size(), 3u);
    EXPECT_EQ(r.points[0].cost.name, "gemm") << "sorted by time";
    EXPECT_EQ(r.points[0].bound, ts::Bound::Compute);
    EXPECT_DOUBLE_EQ(r.points[0].intensity, 80);
    EXPECT_DOUBLE_EQ(r.points[0].achieved_gflops, 40);
    EXPECT_DOUBLE_EQ(r.points[0].efficiency, 0.4);
    const auto& stream = r.points[1];
    EXPECT_EQ(stream.bound, ts::Bound::Memory);
    EXPECT_DOUBLE_EQ(stream.roof_gflops, 5); // 20 GB/s x 0.25
    EXPECT_DOUBLE_EQ(stream.efficiency, 0.2);
    EXPECT_EQ(r.points[2].bound, ts::Bound::Memory);
    EXPECT_DOUBLE_EQ(r.points[2].roof_gflops, 200);
    double shares = 0;
    for (const auto& pt : r.points)
        shares += pt.time_share;
    EXPECT_NEAR(shares, 1, 1e-12);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("1 of 4"), std::string::npos);
    EXPECT_THROW(ts::buildRoofline(ts::MachinePeaks{}, {}), std::invalid_argument);
}

TEST(Roofline, OperatorRowsUseDeviceTimeAndLowPrecisionForMatmuls) {
    ts::OpTable t;
    t.rows.push_back({"aten::conv2d", "", false, 4, 2'000'000, 0, 500'000, 0, 0, 0, 2e9, 1e8});
    t.rows.push_back({"aten::add_", "", false, 4, 1'000'000, 0, 0, 0, 0, 0, 1e6, 1.2e7});
    const auto low = ts::costsFromOpTable(t, true);
    EXPECT_DOUBLE_EQ(low[0].time_ns, 500'000) << "device time when there is any";
    EXPECT_TRUE(low[0].low_precision);
    EXPECT_FALSE(low[1].low_precision);
    EXPECT_DOUBLE_EQ(low[1].time_ns, 1'000'000);
    EXPECT_FALSE(ts::costsFromOpTable(t, false)[0].low_precision);
}

TEST(Roofline, CsvTextAndChart) {
    const auto r = ts::buildRoofline(
        peaks(), {cost("aten::mm", 8e9, 1e8, 2e8), cost("aten::add", 1e6, 4e6, 1e6)});
    const auto rows = ts::parseCsvRecords(ts::rooflineCsv(r));
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0][5], "arithmetic_intensity");
    EXPECT_EQ(rows[1][0], "aten::mm");
    EXPECT_EQ(rows[1][10], "compute");
    EXPECT_EQ(rows[2][10], "memory");
    const std::string text = ts::rooflineText(r);
    EXPECT_NE(text.find("ridge at 5.00 FLOP/byte"), std::string::npos) << text;
    EXPECT_NE(text.find("1 of 2 placed operators are memory-bound"), std::string::npos);
    // The chart is described here and drawn by the Qt renderer (tests/widgets/test_charts).
    const auto chart = ts::rooflineChart(r, "test");
    EXPECT_EQ(chart.title, "test");
    EXPECT_TRUE(chart.log_x && chart.log_y);
    EXPECT_FALSE(chart.series.empty());
}

TEST(NcuCsv, RawPageWithUnitsRowAndThousandsSeparators) {
    const auto import = ts::readNcuCsv(writeFile("raw.csv", kRawExport));
    EXPECT_EQ(import.launches, 3);
    ASSERT_EQ(import.kernels.size(), 2u);
    const auto& gemm = import.kernels[0]; // 1250.25 us: the longest
    EXPECT_EQ(gemm.name, "sgemm_128x64");
    EXPECT_EQ(gemm.calls, 1);
    EXPECT_DOUBLE_EQ(gemm.flops, 2 * 250'000'000.0 + 1000 + 500);
    EXPECT_DOUBLE_EQ(gemm.bytes, 2.10e6);
    EXPECT_DOUBLE_EQ(gemm.time_ns, 1'250'250);
    const auto& add = import.kernels[1];
    EXPECT_EQ(add.name, "void add_kernel<float, 4>(float*, int)");
    EXPECT_EQ(add.calls, 2);
    EXPECT_DOUBLE_EQ(add.flops, 2 * 1'048'576.0);
    EXPECT_DOUBLE_EQ(add.bytes, 2 * 12.58e6);
    EXPECT_DOUBLE_EQ(add.time_ns, 20'000);
    EXPECT_FALSE(add.low_precision);
    ASSERT_FALSE(import.notes.empty());
    EXPECT_NE(import.notes[0].find("hfma"), std::string::npos) << "absent metrics are named";
}

TEST(NcuCsv, ReadWriteBytesHalfPrecisionAndNoUnitsRow) {
    const std::string csv =
        "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\","
        "\"gpu__time_duration.sum\",\"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum\","
        "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
        "\"0\",\"volta_h884gemm\",\"1000\",\"500\",\"2000\",\"4000\",\"10\"\n";
    const auto import = ts::parseNcuCsv(csv, "half.csv");
    ASSERT_EQ(import.kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(import.kernels[0].bytes, 1500);
    EXPECT_DOUBLE_EQ(import.kernels[0].flops, 8020);
    EXPECT_DOUBLE_EQ(import.kernels[0].time_ns, 2000) << "no units row: values as written";
    EXPECT_TRUE(import.kernels[0].low_precision);
}

TEST(NcuCsv, DetailsPageOneRowPerMetric) {
    const std::string csv =
        "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"k1\",\"Command line profiler metrics\",\"dram__bytes.sum\",\"Kbyte\",\"4.00\"\n"
        "\"0\",\"k1\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"msecond\","
        "\"1.5\"\n"
        "\"0\",\"k1\",\"Command line profiler metrics\","
        "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"Minst\",\"2\"\n"
        "\"1\",\"k1\",\"Command line profiler metrics\",\"dram__bytes.sum\",\"byte\",\"1000\"\n"
        "\"1\",\"k1\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"nsecond\","
        "\"500\"\n";
    const auto import = ts::parseNcuCsv(csv, "details.csv");
    EXPECT_EQ(import.launches, 2);
    ASSERT_EQ(import.kernels.size(), 1u);
    EXPECT_EQ(import.kernels[0].calls, 2);
    EXPECT_DOUBLE_EQ(import.kernels[0].bytes, 5000);
    EXPECT_DOUBLE_EQ(import.kernels[0].time_ns, 1'500'500);
    EXPECT_DOUBLE_EQ(import.kernels[0].flops, 4e6);
}

TEST(NcuCsv, MissingMetricsAndOtherFilesAreNamed) {
    auto message = [](const std::string& text) {
        try {
            ts::parseNcuCsv(text, "bad.csv");
        } catch (const ts::NcuFormatError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("a,b\n1,2\n").find("Kernel Name"), std::string::npos);
    const std::string no_time =
        message("\"Kernel "
                "Name\",\"dram__bytes.sum\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
                "\"k\",\"1\",\"2\"\n");
    EXPECT_NE(no_time.find("bad.csv"), std::string::npos);
    EXPECT_NE(no_time.find("gpu__time_duration.sum"), std::string::npos) << no_time;
    EXPECT_NE(message("\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\"\n"
                      "\"k\",\"1\",\"2\"\n")
                  .find("FLOP"),
              std::string::npos);
    EXPECT_THROW(ts::readNcuCsv("/nonexistent/ncu.csv"), ts::NcuFormatError);
}

TEST(NcuCsv, CsvRecordsUnitsAndNumbers) {
    const auto rows = ts::parseCsvRecords("a,\"b,c\",\"d \"\"q\"\"\"\r\n\"multi\nline\",,x\n");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0][1], "b,c");
    EXPECT_EQ(rows[0][2], "d \"q\"");
    EXPECT_EQ(rows[1][0], "multi\nline");
    EXPECT_EQ(rows[1][1], "");
    double v = 0;
    EXPECT_TRUE(ts::parseNcuNumber("1,234,567.5", v));
    EXPECT_DOUBLE_EQ(v, 1234567.5);
    EXPECT_FALSE(ts::parseNcuNumber("n/a", v));
    EXPECT_DOUBLE_EQ(ts::ncuUnitScale("usecond"), 1e3);
    EXPECT_DOUBLE_EQ(ts::ncuUnitScale("Gbyte"), 1e9);
    EXPECT_DOUBLE_EQ(ts::ncuUnitScale("inst"), 1);
    EXPECT_DOUBLE_EQ(ts::ncuUnitScale("Kinst"), 1e3);
}

TEST(PeakBenchmark, SmallMeasurementsArePositive) {
    EXPECT_GT(ts::measureMatmulGflops("cpu", 64, "fp32", 2), 0);
    EXPECT_GT(ts::measureBandwidthGbs("cpu", int64_t(4) << 20, 2), 0);
    ts::PeakOptions o;
    o.matrix_size = 128;
    o.stream_bytes = int64_t(4) << 20;
    o.repeats = 2;
    const auto p = ts::measurePeaks(o);
    EXPECT_GT(p.fp32_gflops, 0);
    EXPECT_GT(p.bandwidth_gbs, 0);
    EXPECT_EQ(p.source, "measured");
    EXPECT_THROW(ts::measureMatmulGflops("tpu", 64, "fp32", 1), std::invalid_argument);
    EXPECT_THROW(ts::measureMatmulGflops("cpu", 64, "fp64", 1), std::invalid_argument);
}
