#include "report/ChartRenderer.h"

#include <mutex>

namespace ts {
namespace {

// Installed once at startup and read by report writers on any thread.
std::mutex g_mutex;
std::unique_ptr<ChartRenderer> g_renderer;

} // namespace

void installChartRenderer(std::unique_ptr<ChartRenderer> renderer) {
    std::lock_guard lock(g_mutex);
    g_renderer = std::move(renderer);
}

ChartRenderer* chartRenderer() {
    std::lock_guard lock(g_mutex);
    return g_renderer.get();
}

bool writeChart(const chart::ChartSpec& spec, const std::filesystem::path& png_path) {
    ChartRenderer* renderer = chartRenderer();
    if (!renderer) return false;
    std::filesystem::path stem = png_path;
    stem.replace_extension();
    renderer->render(spec, stem);
    return true;
}

std::string chartMarkdown(const std::string& alt, const std::string& png_file) {
    if (chartRenderer()) return "![" + alt + "](" + png_file + ")";
    return "*(" + alt + " chart: " + kChartsNeedQt + ")*";
}

} // namespace ts
