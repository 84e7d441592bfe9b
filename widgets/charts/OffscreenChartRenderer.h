#pragma once
// Draws report charts without a display: core's ChartRenderer implemented
// with the GUI's own chart code (ThemedPlot + drawSpec), so that a report
// and the GUI show the same chart the same way. trainscope-cli (Qt build) and
// the GUI install it at startup.
#include "report/ChartRenderer.h"

namespace ts::gui {

class OffscreenChartRenderer : public ChartRenderer {
public:
    // <stem>.png at kChartPixelRatio times kChartWidth x kChartHeight, and
    // <stem>.pdf. Makes a QApplication on the `offscreen` platform when the
    // process has none (QT_QPA_PLATFORM is left alone where the user set it);
    // called off the GUI thread, it posts the drawing there and returns at once
    // (a worker never waits for the GUI thread; failures are logged there).
    std::vector<std::filesystem::path> render(const chart::ChartSpec& spec,
                                              const std::filesystem::path& stem) override;
};

// Installs an OffscreenChartRenderer unless a renderer is installed already.
void installOffscreenChartRenderer();

} // namespace ts::gui
