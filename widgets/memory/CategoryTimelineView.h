#pragma once
// Memory ▸ Memory by Category: torch.profiler's export_memory_timeline file
// (analysis/MemoryCategories.h) as HTA's MemoryAnalysis and PyTorch's own
// HTML plot show it, each category's bytes over time stacked on the ones
// below, with the categories at the peak and, after a click on the chart, at
// that moment; the tables are the CLI's (trace-stats FILE).
#include <memory>

#include "analysis/MemoryCategories.h"
#include "common/SpecTablesView.h"

class QCPGraph;

namespace ts::gui {

class ThemedPlot;

class CategoryTimelineView : public SpecTablesView {
    Q_OBJECT
public:
    explicit CategoryTimelineView(AppSettings* settings = nullptr, QWidget* parent = nullptr);

    void setTimeline(std::shared_ptr<const CategoryTimeline> timeline, const QString& description);
    void clear(const QString& message = {});
    // The categories after point `index` of the timeline in the second table.
    void showPoint(size_t index);
    size_t shownPoint() const { return point_; }
    ThemedPlot* chart() const { return chart_; }
    // The stacked layers, bottom first (one per category).
    const std::vector<QCPGraph*>& layers() const { return layers_; }

    enum Table { Peak, Then, OverTime };

private:
    void draw();
    void rebuild();

    std::shared_ptr<const CategoryTimeline> timeline_;
    QString description_;
    ThemedPlot* chart_;
    std::vector<QCPGraph*> layers_;
    size_t point_ = 0;
};

} // namespace ts::gui
