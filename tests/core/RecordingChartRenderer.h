#pragma once
// A chart renderer for core tests (core has no Qt): it keeps each spec it is
// given and writes a placeholder <stem>.png, so that tests can check what the
// reports would draw and that they ask for every chart.
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "report/ChartRenderer.h"

namespace ts::test {

class RecordingChartRenderer : public ChartRenderer {
public:
    std::vector<std::filesystem::path> render(const chart::ChartSpec& spec,
                                              const std::filesystem::path& stem) override {
        auto png = stem;
        png += ".png";
        std::ofstream(png) << "placeholder";
        specs[png.filename().string()] = spec;
        return {png};
    }
    std::map<std::string, chart::ChartSpec> specs; // by PNG file name
};

// Installs a RecordingChartRenderer for the scope and removes it after.
class ScopedRecordingRenderer {
public:
    ScopedRecordingRenderer() {
        auto renderer = std::make_unique<RecordingChartRenderer>();
        recorder_ = renderer.get();
        installChartRenderer(std::move(renderer));
    }
    ~ScopedRecordingRenderer() { installChartRenderer(nullptr); }
    RecordingChartRenderer& operator*() const { return *recorder_; }
    RecordingChartRenderer* operator->() const { return recorder_; }

private:
    RecordingChartRenderer* recorder_;
};

} // namespace ts::test
