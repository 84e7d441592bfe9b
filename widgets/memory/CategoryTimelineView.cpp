#include "memory/CategoryTimelineView.h"

#include <QVBoxLayout>

#include "charts/ThemedPlot.h"
#include "common/ThemePalette.h"
#include "report/SnapshotTables.h"

namespace ts::gui {
namespace {

constexpr size_t kChartPoints = 3000; // each the largest of its stretch
constexpr size_t kTablePoints = 500;

} // namespace

CategoryTimelineView::CategoryTimelineView(AppSettings* settings, QWidget* parent)
    : SpecTablesView(settings, parent), chart_(new ThemedPlot) {
    chart_->setMinimumHeight(280);
    chart_->xAxis->setLabel(tr("ms from the first point"));
    chart_->yAxis->setLabel(tr("GiB"));
    chart_->legend->setVisible(true);
    chart_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    chart_->axisRect()->setRangeZoom(Qt::Horizontal);
    chart_->axisRect()->setRangeDrag(Qt::Horizontal);
    bodyLayout()->insertWidget(0, chart_);
    connect(chart_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (!timeline_ || timeline_->times_ns.empty()) return;
        // The point at or before the time clicked.
        const double ms = chart_->xAxis->pixelToCoord(event->pos().x());
        const auto ns = timeline_->times_ns.front() + int64_t(ms * 1e6);
        const auto it =
            std::upper_bound(timeline_->times_ns.begin(), timeline_->times_ns.end(), ns);
        showPoint(size_t(std::max<std::ptrdiff_t>(0, it - timeline_->times_ns.begin() - 1)));
    });
    clear(tr("Open torch.profiler's export_memory_timeline output (*.raw.json.gz)."));
}

void CategoryTimelineView::clear(const QString& message) {
    timeline_.reset();
    chart_->clearGraphs();
    layers_.clear();
    chart_->refresh();
    SpecTablesView::clear(message);
}

void CategoryTimelineView::setTimeline(std::shared_ptr<const CategoryTimeline> timeline,
                                       const QString& description) {
    if (!timeline) return clear();
    timeline_ = std::move(timeline);
    description_ = description;
    point_ = categoryPeak(*timeline_).index;
    draw();
    rebuild();
}

void CategoryTimelineView::showPoint(size_t index) {
    if (!timeline_) return;
    point_ = std::min(index, timeline_->times_ns.empty() ? 0 : timeline_->times_ns.size() - 1);
    rebuild();
}

// Each layer is the running sum up to its category, filled down to the one
// below, from the downsampled table (so the chart and the CSV agree).
void CategoryTimelineView::draw() {
    chart_->clearGraphs();
    layers_.clear();
    const table::TableSpec points = categoryTimelineTable(*timeline_, kChartPoints);
    for (size_t c = 0; c < kMemoryCategories; ++c) {
        QCPGraph* layer = chart_->addGraph();
        const QColor color = seriesColor(int(c));
        layer->setName(QString::fromLatin1(memoryCategoryName(c)));
        layer->setPen(QPen(color.darker(115), 1.0));
        layer->setBrush(QColor(color.red(), color.green(), color.blue(), 170));
        layer->setLineStyle(QCPGraph::lsStepLeft);
        if (!layers_.empty()) layer->setChannelFillGraph(layers_.back());
        layers_.push_back(layer);
    }
    // The unit the peak reaches (a CPU profile's few hundred KiB read
    // "0.0004" in GiB): B, KiB, MiB or GiB.
    const int64_t peak = categoryPeak(*timeline_).total_bytes;
    double unit = 1;
    QString unit_name = tr("bytes");
    for (const char* name : {"KiB", "MiB", "GiB"}) {
        if (double(peak) < unit * 1024) break;
        unit *= 1024;
        unit_name = QString::fromLatin1(name);
    }
    chart_->yAxis->setLabel(unit_name);
    for (const auto& row : points.rows) {
        double sum = 0;
        for (size_t c = 0; c < kMemoryCategories; ++c) {
            sum += row[2 + c].value;
            layers_[c]->addData(row[0].value, sum / unit);
        }
    }
    chart_->rescaleAxes();
    // Room above the highest point for the legend, which sits in the top right.
    chart_->yAxis->setRange(0, chart_->yAxis->range().upper * 1.35);
    chart_->refresh();
}

void CategoryTimelineView::rebuild() {
    const CategoryTimeline& t = *timeline_;
    SpecTables tables;
    tables.notes << tr("%1: %2 rows, %3 points over %4 ms, summed as Holistic Trace Analysis' "
                       "MemoryAnalysis sums them; click the chart for the categories then.")
                        .arg(description_)
                        .arg(t.rows)
                        .arg(t.times_ns.size())
                        .arg(t.times_ns.empty()
                                 ? 0.0
                                 : double(t.times_ns.back() - t.times_ns.front()) / 1e6,
                             0, 'f', 1);
    tables.tables = {categoryPeakTable(t), categoryAtTable(t, point_),
                     categoryTimelineTable(t, kTablePoints)};
    setTables(tables, description_);
}

} // namespace ts::gui
