// The Qt-free PNG charts and the report tables: pixels survive an
// encode/decode round trip, charts draw their series in their colours, and
// tables escape and align their cells.
#include <cmath>
#include <fstream>

#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "report/ChartPng.h"
#include "report/MarkdownTable.h"

namespace {

using ts::chart::Color;

size_t countColor(const ts::chart::Image& image, Color c) {
    size_t n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += image.at(x, y) == c;
    return n;
}

} // namespace

TEST(ReportPng, EncodeDecodeRoundTripIsPixelExact) {
    ts::chart::Image image(37, 21, {10, 20, 30});
    image.fillRect(3, 4, 10, 5, {200, 100, 50});
    image.line(0, 20, 36, 0, {1, 2, 3}, 2);
    image.text(2, 2, "Ag09%", {255, 255, 255});
    const std::string png = ts::chart::encodePng(image);
    ASSERT_EQ(png.substr(1, 3), "PNG");
    const auto back = ts::chart::decodePng(png);
    ASSERT_EQ(back.width(), 37);
    ASSERT_EQ(back.height(), 21);
    EXPECT_EQ(back.rgb(), image.rgb());
    EXPECT_THROW(ts::chart::decodePng("not a png"), std::runtime_error);
    std::string corrupt = png;
    corrupt[corrupt.size() / 2] ^= 0x5A;
    EXPECT_THROW(ts::chart::decodePng(corrupt), std::runtime_error);
}

TEST(ReportPng, TextIsDrawnAndMeasured) {
    ts::chart::Image image(100, 30);
    const Color ink{0, 0, 0};
    image.text(1, 1, "I", ink, 2);
    EXPECT_EQ(countColor(image, ink), 11u * 4) << "'I' has 2 + 7 + 2 font pixels, each 2x2";
    EXPECT_EQ(ts::chart::Image::textWidth("abc", 1), 17);
    EXPECT_EQ(ts::chart::Image::textWidth("", 3), 0);
    ts::chart::Image vertical(30, 100);
    vertical.text(5, 90, "----", ink, 1, true);
    int top = 100, bottom = 0;
    for (int y = 0; y < 100; ++y)
        for (int x = 0; x < 30; ++x)
            if (vertical.at(x, y) == ink) top = std::min(top, y), bottom = std::max(bottom, y);
    EXPECT_EQ(bottom - top + 1, ts::chart::Image::textWidth("----", 1)) << "runs upwards";
}

TEST(ReportPng, ChartsDrawEverySeriesAndWriteFiles) {
    ts::chart::BarChart bars;
    bars.title = "images/s";
    bars.categories = {"a", "b", "c"};
    bars.series = {{"run", {10, NAN, 30}, ts::chart::paletteColor(0)},
                   {"other", {5, 6, 7}, ts::chart::paletteColor(1)}};
    const auto bar_image = ts::chart::renderBarChart(bars);
    EXPECT_GT(countColor(bar_image, ts::chart::paletteColor(0)), 1000u);
    EXPECT_GT(countColor(bar_image, ts::chart::paletteColor(1)), 500u);

    ts::chart::XyChart xy;
    xy.title = "log";
    xy.log_x = xy.log_y = true;
    xy.series = {{"line", {1, 10, 100}, {5, 50, 500}, ts::chart::paletteColor(2), true, true, {}},
                 {"dots", {3, -1}, {7, 1}, ts::chart::paletteColor(3), false, true, {"x", ""}}};
    const auto xy_image = ts::chart::renderXyChart(xy, {640, 400, 1});
    EXPECT_EQ(xy_image.width(), 640);
    EXPECT_GT(countColor(xy_image, ts::chart::paletteColor(2)), 300u);
    EXPECT_GT(countColor(xy_image, ts::chart::paletteColor(3)), 10u) << "non-positive x skipped";

    const auto path = ts::test::freshDir("png") / "chart.png";
    ts::chart::writePng(xy_image, path);
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(ts::chart::decodePng(bytes).rgb(), xy_image.rgb());
}

TEST(ReportPng, CompactNumbers) {
    EXPECT_EQ(ts::chart::formatCompact(0), "0");
    EXPECT_EQ(ts::chart::formatCompact(12.5), "12.5");
    EXPECT_EQ(ts::chart::formatCompact(250), "250");
    EXPECT_EQ(ts::chart::formatCompact(12500), "12.5k");
    EXPECT_EQ(ts::chart::formatCompact(3.4e6), "3.4M");
    EXPECT_EQ(ts::chart::formatCompact(0.25), "0.25");
    EXPECT_EQ(ts::chart::formatCompact(NAN), "-");
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
