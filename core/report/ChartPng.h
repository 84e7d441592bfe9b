#pragma once
// PNG charts without Qt, for reports written by the CLI: an RGB raster with a
// built-in 5x7 bitmap font, a minimal PNG encoder (zlib), and two chart kinds:
// grouped bars and x/y lines (linear or log axes). Small on purpose; the GUI
// draws its own interactive charts.
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace ts::chart {

struct Color {
    uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Color& o) const { return r == o.r && g == o.g && b == o.b; }
    bool operator!=(const Color& o) const { return !(*this == o); }
};

// The i-th colour of a fixed palette that stays distinguishable in print.
Color paletteColor(size_t i);

class Image {
public:
    Image(int width, int height, Color background = {255, 255, 255});
    int width() const { return width_; }
    int height() const { return height_; }
    // Out-of-range pixels are ignored (drawing clips at the border).
    void set(int x, int y, Color c);
    Color at(int x, int y) const;
    void fillRect(int x, int y, int w, int h, Color c);
    // 1-pixel line, `thickness` extra pixels spread around it.
    void line(int x0, int y0, int x1, int y1, Color c, int thickness = 1);
    // Text in the 5x7 font, each font pixel drawn as scale x scale; (x, y) is
    // the top-left corner. `vertical` turns it 90 degrees counter-clockwise
    // (reading bottom to top), (x, y) then being the bottom-left corner.
    void text(int x, int y, const std::string& s, Color c, int scale = 1, bool vertical = false);
    static int textWidth(const std::string& s, int scale = 1);
    static int textHeight(int scale = 1) { return 7 * scale; }
    const std::vector<uint8_t>& rgb() const { return pixels_; }

private:
    int width_, height_;
    std::vector<uint8_t> pixels_; // RGB, row-major
};

// 8-bit RGB PNG (one IDAT, filter 0).
std::string encodePng(const Image& image);
void writePng(const Image& image, const std::filesystem::path& path);
// Reads back PNGs as encodePng writes them (8-bit RGB, any of the five
// filters); for tests and tools. Throws std::runtime_error naming the problem.
Image decodePng(const std::string& bytes);

struct BarSeries {
    std::string name;
    std::vector<double> values; // one per category; NaN = no bar
    Color color;
};

struct BarChart {
    std::string title;
    std::string y_label;
    std::vector<std::string> categories;
    std::vector<BarSeries> series;
    bool value_labels = true; // print each bar's value above it
    // Series share one full-width bar per category instead of standing side by
    // side: for series that split categories between them (kept / not kept).
    bool overlay = false;
};

struct XySeries {
    std::string name;
    std::vector<double> xs, ys; // NaN y = gap in the line
    Color color;
    bool line = true;
    bool markers = true;
    std::vector<std::string> point_labels; // optional text next to each point
};

struct XyChart {
    std::string title;
    std::string x_label, y_label;
    bool log_x = false, log_y = false;
    std::vector<XySeries> series;
    // Custom x ticks (value, label), e.g. categorical batch sizes; empty = automatic.
    std::vector<std::pair<double, std::string>> x_ticks;
};

struct ChartSize {
    int width = 960;
    int height = 560;
    int text_scale = 2; // font pixel size of labels; titles are one step larger
};

Image renderBarChart(const BarChart& chart, ChartSize size = {});
Image renderXyChart(const XyChart& chart, ChartSize size = {});

// Compact number for axis labels and bar values: 0.25, 12.5, 1.2k, 3.4M.
std::string formatCompact(double value);

} // namespace ts::chart
