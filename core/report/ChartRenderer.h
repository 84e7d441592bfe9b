#pragma once
// Where report charts become files. core/ has no Qt, so it only describes
// charts (ChartSpec.h); a renderer that draws them is installed by the
// program that can (the Qt build of trainscope-cli and the GUI install the
// offscreen QCustomPlot one from widgets/charts). Without one, the reports
// keep every CSV and markdown file and say in place of each image that charts
// need the Qt build.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "report/ChartSpec.h"

namespace ts {

// The size a chart is laid out at; PNGs hold twice as many pixels each way
// so that they stay sharp on high-DPI screens.
inline constexpr int kChartWidth = 960;
inline constexpr int kChartHeight = 560;
inline constexpr double kChartPixelRatio = 2.0;

class ChartRenderer {
public:
    virtual ~ChartRenderer() = default;
    // Writes <stem>.png (kChartPixelRatio times the nominal size) and the
    // vector forms the renderer offers (<stem>.pdf); returns the files
    // written. Throws std::runtime_error naming the path it could not write.
    virtual std::vector<std::filesystem::path> render(const chart::ChartSpec& spec,
                                                      const std::filesystem::path& stem) = 0;
};

// Process-wide: the last one installed wins; nullptr uninstalls.
void installChartRenderer(std::unique_ptr<ChartRenderer> renderer);
// The installed renderer, or nullptr when this build cannot draw charts.
ChartRenderer* chartRenderer();

// What reports print instead of a chart in builds without a renderer.
inline constexpr const char* kChartsNeedQt =
    "charts need the Qt build of Trainscope (TRAINSCOPE_BUILD_GUI=ON)";

// Renders `spec` to `png_path` (and its siblings with other extensions);
// does nothing without a renderer. Returns whether a chart was written.
bool writeChart(const chart::ChartSpec& spec, const std::filesystem::path& png_path);
// The markdown for a chart image: the image link, or the note above when no
// renderer is installed.
std::string chartMarkdown(const std::string& alt, const std::string& png_file);

} // namespace ts
