// The report's chart descriptions and tables: the renderer registry (no
// renderer: no files, a note in the markdown), the roofline's spec, compact
// numbers, and tables that escape and align their cells.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "analysis/Roofline.h"
#include "report/ChartRenderer.h"
#include "report/MarkdownTable.h"
#include "report/RooflineReport.h"

namespace {

// Keeps the stems it was asked to draw and writes nothing.
class StemRecorder : public ts::ChartRenderer {
public:
    explicit StemRecorder(std::vector<std::filesystem::path>* stems) : stems_(stems) {}
    std::vector<std::filesystem::path> render(const ts::chart::ChartSpec&,
                                              const std::filesystem::path& stem) override {
        stems_->push_back(stem);
        return {};
    }

private:
    std::vector<std::filesystem::path>* stems_;
};

} // namespace

TEST(ReportCharts, WithoutARendererNothingIsDrawnAndTheMarkdownSaysWhy) {
    ts::installChartRenderer(nullptr);
    EXPECT_EQ(ts::chartRenderer(), nullptr);
    const auto png = std::filesystem::temp_directory_path() / "ts_no_renderer_chart.png";
    std::filesystem::remove(png);
    EXPECT_FALSE(ts::writeChart(ts::chart::BarChart{}, png));
    EXPECT_FALSE(std::filesystem::exists(png));
    const std::string md = ts::chartMarkdown("images/s", "chart.png");
    EXPECT_EQ(md.find("!["), std::string::npos) << md;
    EXPECT_NE(md.find(ts::kChartsNeedQt), std::string::npos) << md;
}

TEST(ReportCharts, AnInstalledRendererGetsTheStemWithoutExtension) {
    std::vector<std::filesystem::path> stems;
    ts::installChartRenderer(std::make_unique<StemRecorder>(&stems));
    EXPECT_TRUE(ts::writeChart(ts::chart::XyChart{}, "out/sweep_memory.png"));
    EXPECT_EQ(ts::chartMarkdown("memory", "sweep_memory.png"), "![memory](sweep_memory.png)");
    ts::installChartRenderer(nullptr);
    ASSERT_EQ(stems.size(), 1u);
    EXPECT_EQ(stems[0], std::filesystem::path("out/sweep_memory"));
}

TEST(ReportCharts, RooflineSpecHasRoofsRidgeAndSizedNamedPoints) {
    ts::MachinePeaks peaks;
    peaks.fp32_gflops = 100;
    peaks.bandwidth_gbs = 10;
    // relu: 1 FLOP/byte (memory-bound), conv: 30 FLOP/byte (compute-bound).
    const auto roofline = ts::buildRoofline(peaks, {{"aten::relu_", 10, 1e6, 1e6, 1e6, false},
                                                    {"aten::conv2d", 5, 3e9, 1e8, 3e8, false}});
    const auto c = ts::rooflineChart(roofline, "Roofline: test", 1);
    EXPECT_EQ(c.title, "Roofline: test");
    EXPECT_TRUE(c.log_x && c.log_y);
    ASSERT_EQ(c.series.size(), 4u); // fp32 roof, ridge, memory-bound, compute-bound
    const auto& roof = c.series[0];
    EXPECT_EQ(roof.name.rfind("fp32 roof", 0), 0u) << roof.name;
    ASSERT_EQ(roof.xs.size(), 3u);
    EXPECT_DOUBLE_EQ(roof.xs[1], 10.0); // the ridge
    EXPECT_DOUBLE_EQ(roof.ys[1], 100.0);
    EXPECT_FALSE(roof.markers);
    EXPECT_EQ(c.series[1].name.rfind("ridge", 0), 0u);
    const auto& memory = c.series[2];
    const auto& compute = c.series[3];
    EXPECT_EQ(memory.name, "memory-bound");
    EXPECT_EQ(compute.name, "compute-bound");
    ASSERT_EQ(memory.xs.size(), 1u);
    ASSERT_EQ(compute.xs.size(), 1u);
    EXPECT_FALSE(memory.line);
    EXPECT_DOUBLE_EQ(memory.xs[0], 1.0);
    EXPECT_DOUBLE_EQ(compute.xs[0], 30.0);
    // Only the most time-consuming point is named, without its aten:: prefix.
    EXPECT_EQ(compute.point_labels, std::vector<std::string>{"conv2d"});
    EXPECT_EQ(memory.point_labels, std::vector<std::string>{""});
    ASSERT_EQ(compute.marker_sizes.size(), 1u);
    EXPECT_GT(compute.marker_sizes[0], memory.marker_sizes[0]) << "bigger share, bigger dot";

    peaks.low_gflops = 400;
    peaks.low_precision = "bf16";
    const auto low = ts::rooflineChart(ts::buildRoofline(peaks, {}), "t");
    ASSERT_EQ(low.series.size(), 5u);
    EXPECT_EQ(low.series[0].name.rfind("bf16 roof", 0), 0u) << low.series[0].name;
    EXPECT_TRUE(low.series[0].dashed);
}

TEST(ReportCharts, CompactNumbers) {
    EXPECT_EQ(ts::chart::formatCompact(0), "0");
    EXPECT_EQ(ts::chart::formatCompact(12.5), "12.5");
    EXPECT_EQ(ts::chart::formatCompact(250), "250");
    EXPECT_EQ(ts::chart::formatCompact(12500), "12.5k");
    EXPECT_EQ(ts::chart::formatCompact(3.4e6), "3.4M");
    EXPECT_EQ(ts::chart::formatCompact(0.25), "0.25");
    EXPECT_EQ(ts::chart::formatCompact(NAN), "-");
    EXPECT_NE(ts::chart::paletteColor(0), ts::chart::paletteColor(1));
}

TEST(ReportTables, MarkdownAndPlainTables) {
    const std::string md = ts::markdownTable({"name", "value"}, {{"a|b", "1.5"}, {"c"}}, {"value"});
    EXPECT_EQ(md, "| name | value |\n| --- | ---: |\n| a\\|b | 1.5 |\n| c |  |\n");
    const std::string text =
        ts::plainTable({"run", "images/s"}, {{"base", "12.5"}, {"x", "300.0"}});
    EXPECT_EQ(text, "run   images/s\n--------------\nbase      12.5\nx        300.0\n");
    EXPECT_EQ(ts::fixed(NAN), "-");
    EXPECT_EQ(ts::fixed(2.346, 2), "2.35");
    EXPECT_EQ(ts::mib(3 * 1024 * 1024), "3.0");
    EXPECT_EQ(ts::mib(0), "-");
    EXPECT_EQ(ts::percent(0.1234), "12.3%");
    EXPECT_EQ(ts::speedup(1.5), "1.50x");
    EXPECT_EQ(ts::speedup(0), "-");
}
