// `compare`, `advise` and `roofline --run` on run directories written by
// RunRecorder from constructed records (no training needed): the files are
// written and parse back, bad input exits 2 naming it.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <variant>

#include <gtest/gtest.h>

#include "CompareTestSupport.h"
#include "EngineTestSupport.h"
#include "RecordingChartRenderer.h"
#include "analysis/NcuCsv.h"
#include "analysis/OpTableFormat.h"
#include "commands/Commands.h"
#include "commands/ExperimentCommands.h"
#include "report/ChartRenderer.h"
#include "report/CompareInputs.h"
#include "report/CompareRuns.h"
#include "report/RunDirectory.h"

namespace {

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Output {
    int code;
    std::string out, err;
};

template <typename Options, typename Command> Output call(Command command, const Options& options) {
    std::ostringstream out, err;
    const int code = command(options, out, err);
    return {code, out.str(), err.str()};
}

} // namespace

TEST(Compare, OpsCsvRoundTrips) {
    const auto dir = ts::test::freshDir("ops_roundtrip");
    std::ofstream(dir / "ops.csv") << ts::formatOpTableCsv(ts::test::sampleOpTable());
    const auto t = ts::readOpsCsv(dir / "ops.csv");
    ASSERT_EQ(t.rows.size(), 3u);
    EXPECT_EQ(t.rows[0].name, "aten::mkldnn_convolution");
    EXPECT_EQ(t.rows[0].calls, 40);
    EXPECT_EQ(t.rows[0].self_cpu_ns, 30'000'000);
    EXPECT_DOUBLE_EQ(t.rows[0].flops, 6e9);
    EXPECT_EQ(t.total_self_cpu_ns, 36'000'000);
    std::ofstream(dir / "bad.csv") << "name,calls\nx,3\n";
    EXPECT_THROW(ts::readOpsCsv(dir / "bad.csv"), ts::RunFormatError);
    auto profile = nlohmann::json::array();
    profile.push_back({{"window", 0}, {"ops", ts::opTableToJson(ts::test::sampleOpTable())}});
    const auto from_json = ts::opTableFromProfileJson(profile);
    ASSERT_TRUE(from_json.has_value());
    EXPECT_EQ(from_json->rows[1].name, "aten::add_");
}

TEST(Compare, WritesCsvChartsAndReport) {
    const auto base = ts::test::writeCompareRun("baseline", 32, 200, 30, true);
    const auto fast = ts::test::writeCompareRun("workers", 64, 300, 1, false);
    const auto out_dir = ts::test::freshDir("compare_out");
    ts::CompareOptions options;
    options.runs = {base.string(), fast.string()};
    options.out_dir = out_dir.string();
    ts::test::ScopedRecordingRenderer charts;
    const auto r = call(ts::compareCommand, options);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("1.50x"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("data-wait"), std::string::npos);

    const auto csv = ts::parseCsvRecords(readFile(out_dir / ts::compare_files::kCsv));
    ASSERT_EQ(csv.size(), 3u);
    EXPECT_EQ(csv[1][0], "baseline");
    EXPECT_EQ(csv[2][0], "workers");
    EXPECT_DOUBLE_EQ(std::stod(csv[2][13]), 1.5); // speedup
    auto column = [&](const std::string& name) {
        const auto it = std::find(csv[0].begin(), csv[0].end(), name);
        EXPECT_NE(it, csv[0].end()) << name;
        return size_t(it - csv[0].begin());
    };
    EXPECT_EQ(csv[1][column("advice")], "data-wait");
    EXPECT_EQ(csv[1][column("median_page_faults")], "nan") << "runs without the figure";

    const std::string md = readFile(out_dir / ts::compare_files::kReport);
    for (const char* section : {"## Baseline vs the others", "## Configuration differences",
                                "## Top operators", "## Advice", "## Environment"})
        EXPECT_NE(md.find(section), std::string::npos) << section;
    EXPECT_NE(md.find("| throughput (images/s) | 200.0 | 300.0 (+50.0%) |"), std::string::npos)
        << md;
    EXPECT_NE(md.find("| batch_size | 32 | 64 |"), std::string::npos);
    EXPECT_NE(md.find("aten::mkldnn_convolution"), std::string::npos);
    EXPECT_NE(md.find("Not profiled"), std::string::npos);
    EXPECT_NE(md.find("Test CPU"), std::string::npos);
    for (const char* png : {ts::compare_files::kImagesPng, ts::compare_files::kEpochPng,
                            ts::compare_files::kMemoryPng, ts::compare_files::kAccuracyPng}) {
        EXPECT_TRUE(std::filesystem::exists(out_dir / png)) << png;
        EXPECT_NE(md.find(std::string("](") + png + ")"), std::string::npos) << png;
    }
    // The throughput chart: one bar per run, labelled with the run's name.
    const auto& images =
        std::get<ts::chart::BarChart>(charts->specs.at(ts::compare_files::kImagesPng));
    EXPECT_EQ(images.categories, (std::vector<std::string>{"baseline", "workers"}));
    ASSERT_EQ(images.series.size(), 1u);
    EXPECT_DOUBLE_EQ(images.series[0].values[1], 300.0);
}

TEST(Compare, ChartsLeaveOutDeviceMemoryOfHostOnlyRuns) {
    ts::ComparisonFigures cpu{"cpu", 200, 12.5, 512 * 1024 * 1024, 0, 0.5};
    ts::ComparisonFigures other{"other", 0, 0, 256 * 1024 * 1024, 0, std::nan("")};
    const auto charts = ts::comparisonCharts({cpu, other});
    ASSERT_EQ(charts.size(), 4u);
    EXPECT_EQ(charts[0].categories, (std::vector<std::string>{"cpu", "other"}));
    EXPECT_DOUBLE_EQ(charts[0].series[0].values[0], 200.0);
    EXPECT_TRUE(std::isnan(charts[0].series[0].values[1])) << "unknown: no bar";
    EXPECT_DOUBLE_EQ(charts[1].series[0].values[0], 12.5);
    ASSERT_EQ(charts[2].series.size(), 1u);
    EXPECT_EQ(charts[2].title, "Peak memory (host resident set)");
    EXPECT_DOUBLE_EQ(charts[2].series[0].values[0], 512.0);
    EXPECT_DOUBLE_EQ(charts[3].series[0].values[0], 50.0);
    cpu.peak_device_bytes = 1024 * 1024;
    EXPECT_EQ(ts::comparisonCharts({cpu, other})[2].series.size(), 2u);
}

TEST(Compare, BadRunDirectoryExitsTwoNamingIt) {
    ts::CompareOptions options;
    options.runs = {"/nonexistent/run-dir"};
    const auto r = call(ts::compareCommand, options);
    EXPECT_EQ(r.code, ts::exit_code::kBadInput);
    EXPECT_NE(r.err.find("/nonexistent/run-dir"), std::string::npos) << r.err;
    EXPECT_EQ(call(ts::compareCommand, ts::CompareOptions{}).code, ts::exit_code::kBadInput);
}

TEST(Compare, AdviseListsTheRulesThatFire) {
    ts::AdviseOptions options;
    options.run_dir = ts::test::writeCompareRun("slowdata", 32, 200, 30, true).string();
    auto r = call(ts::adviseCommand, options);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("[warning] data-wait: Waiting for data takes 30.00 ms"), std::string::npos)
        << r.out;
    options.json = true;
    r = call(ts::adviseCommand, options);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["advice"][0]["rule"], "data-wait");
    options.run_dir = "/nonexistent";
    EXPECT_EQ(call(ts::adviseCommand, options).code, ts::exit_code::kBadInput);
}

TEST(Compare, RooflineOfAProfiledRunWithEnteredPeaks) {
    const auto out_dir = ts::test::freshDir("roofline_cmd");
    ts::RooflineOptions options;
    options.run_dir = ts::test::writeCompareRun("profiled", 32, 200, 1, true).string();
    options.peak_gflops = 100;
    options.peak_gbs = 10;
    options.out_dir = out_dir.string();
    auto charts = std::make_optional<ts::test::ScopedRecordingRenderer>();
    const auto r = call(ts::rooflineCommand, options);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("ridge at 10.00 FLOP/byte"), std::string::npos) << r.out;
    const auto csv = ts::parseCsvRecords(readFile(out_dir / "roofline.csv"));
    ASSERT_EQ(csv.size(), 3u); // two operators with FLOP estimates
    EXPECT_EQ(csv[1][0], "aten::mkldnn_convolution");
    EXPECT_EQ(csv[1][10], "compute"); // 30 FLOP/byte
    EXPECT_EQ(csv[2][10], "memory");
    const auto& chart = std::get<ts::chart::XyChart>((*charts)->specs.at("roofline.png"));
    EXPECT_EQ(chart.title, "Roofline: profiled");
    EXPECT_TRUE(std::filesystem::exists(out_dir / "roofline.png"));
    charts.reset();
    EXPECT_NE(readFile(out_dir / "peaks.json").find("\"source\": \"entered\""), std::string::npos);

    options.run_dir = ts::test::writeCompareRun("unprofiled", 32, 200, 1, false).string();
    auto bad = call(ts::rooflineCommand, options);
    EXPECT_EQ(bad.code, ts::exit_code::kBadInput);
    EXPECT_NE(bad.err.find("profile.enabled"), std::string::npos) << bad.err;
    options.ncu_file = "x.csv";
    EXPECT_EQ(call(ts::rooflineCommand, options).code, ts::exit_code::kBadInput);
}
