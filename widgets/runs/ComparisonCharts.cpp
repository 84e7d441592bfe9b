#include "runs/ComparisonCharts.h"

#include <cmath>

#include "analysis/NoiseInterval.h"
#include "report/CompareNoise.h"
#include "report/CompareRuns.h"
#include "report/RunDirectory.h"

namespace ts::gui {
namespace {

// The run list's figures in the report's terms.
ComparisonFigures figuresOf(const RunRow& r) {
    ComparisonFigures f;
    f.label = r.name;
    f.images_per_sec = std::isfinite(r.images_per_sec) ? r.images_per_sec : 0;
    f.epoch_time_s = std::isfinite(r.epoch_time_s) ? r.epoch_time_s : 0;
    f.peak_rss_bytes = r.peak_rss_bytes;
    f.peak_device_bytes = r.peak_device_bytes;
    // As ComparedRun::accuracy: the best validation accuracy, else training's.
    f.accuracy = std::isfinite(r.val_accuracy) ? r.val_accuracy : r.train_accuracy;
    return f;
}

} // namespace

ComparisonCharts::ComparisonCharts(QWidget* parent) : ThemedPlot(parent) {
    plotLayout()->clear(); // also deletes the default axis rect and legend
    auto* grid = new QCPLayoutGrid;
    plotLayout()->addElement(0, 0, grid);
    for (int i = 0; i < 4; ++i)
        panels_.push_back(addSpecPanel(*this, grid, i / 2, i % 2));
    setMinimumSize(360, 280);
    setRuns({});
}

void ComparisonCharts::setRuns(const std::vector<RunRow>& runs) {
    run_count_ = int(runs.size());
    std::vector<ComparisonFigures> figures;
    for (const RunRow& r : runs) {
        figures.push_back(figuresOf(r));
        figures.back().images_per_sec_error = imagesPerSecError(QString::fromStdString(r.dir));
    }
    const auto charts = comparisonCharts(figures);
    for (size_t i = 0; i < panels_.size() && i < charts.size(); ++i)
        drawSpec(charts[i], panels_[i]);
    refresh();
}

double ComparisonCharts::imagesPerSecError(const QString& dir) {
    const auto known = errors_.constFind(dir);
    if (known != errors_.constEnd()) return *known;
    double error = std::nan("");
    try {
        // steps.csv is a few KB per thousand steps: read on the GUI thread.
        const RunRecord run = loadRun(dir.toStdString(), /*with_steps=*/true);
        const LevelInterval level = medianInterval(steadyStepValues(run, StepMetric::ImagesPerSec));
        if (level.confidence > 0) error = (level.high - level.low) / 2;
    } catch (const std::exception&) {
        // A run without readable steps simply has no error bar.
    }
    errors_.insert(dir, error);
    return error;
}

} // namespace ts::gui
