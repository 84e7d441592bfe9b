#include "memory/SnapshotView.h"

#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

#include "charts/SpecPlot.h"
#include "charts/ThemedPlot.h"
#include "memory/ActiveTimelineChart.h"
#include "report/SnapshotTables.h"
#include "snapshot/ActiveTimeline.h"
#include "snapshot/SnapshotAnalysis.h"

namespace ts::gui {
namespace {

constexpr size_t kChartPoints = 2000;
constexpr size_t kBands = 15000; // drawn one by one, as memory_viz does

} // namespace

SnapshotView::SnapshotView(AppSettings* settings, QWidget* parent)
    : SpecTablesView(settings, parent), devices_(new QComboBox), chart_(new ThemedPlot),
      bands_(new ActiveTimelineChart) {
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Device:")));
    bar->addWidget(devices_);
    bar->addWidget(new QLabel(tr("Click a chart: what was alive after that entry, by stack; "
                                 "hover a band: its size and stack.")));
    bar->addStretch(1);
    chart_->setMinimumHeight(220);
    auto* charts = new QTabWidget;
    charts->addTab(bands_, tr("Active Memory Timeline"));
    charts->addTab(chart_, tr("Allocated and reserved"));
    bodyLayout()->insertLayout(0, bar);
    bodyLayout()->insertWidget(1, charts);
    connect(bands_, &ActiveTimelineChart::entryClicked, this, &SnapshotView::showAliveAt);
    connect(devices_, &QComboBox::activated, this, [this](int index) { setDevice(index); });
    connect(chart_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (!snapshot_) return;
        const double x = chart_->xAxis->pixelToCoord(event->pos().x());
        const auto size = int64_t(snapshot_->traceSize(device_));
        if (size > 0) showAliveAt(std::clamp(int64_t(std::llround(x)), int64_t(0), size - 1));
    });
    clear(tr("Open a PyTorch allocator snapshot (torch.cuda.memory._dump_snapshot's pickle)."));
}

void SnapshotView::clear(const QString& message) {
    snapshot_.reset();
    devices_->clear();
    chart_->clearPlottables();
    chart_->clearItems();
    chart_->refresh();
    bands_->clear();
    SpecTablesView::clear(message);
}

void SnapshotView::setSnapshot(std::shared_ptr<const MemorySnapshot> snapshot,
                               const QString& description) {
    if (!snapshot) return clear();
    snapshot_ = std::move(snapshot);
    description_ = description;
    devices_->clear();
    for (int d = 0; d < snapshot_->devices(); ++d)
        devices_->addItem(tr("cuda:%1").arg(d));
    device_ = 0;
    entry_ = -1;
    rebuild();
    bands_->setTimeline(snapshot_, activeTimeline(*snapshot_, device_, kBands));
}

void SnapshotView::setDevice(int device) {
    if (!snapshot_ || device < 0 || device >= snapshot_->devices()) return;
    device_ = device;
    devices_->setCurrentIndex(device);
    entry_ = -1;
    rebuild();
    bands_->setTimeline(snapshot_, activeTimeline(*snapshot_, device_, kBands));
}

void SnapshotView::showAliveAt(int64_t entry) {
    entry_ = entry;
    rebuild();
}

void SnapshotView::rebuild() {
    const MemorySnapshot& s = *snapshot_;
    SpecTables tables;
    tables.notes << tr("%1: pickle protocol %2, %3 device(s), %4 trace entries, %5 segments")
                        .arg(description_)
                        .arg(s.protocol)
                        .arg(s.devices())
                        .arg(s.events.size())
                        .arg(s.segments.size());
    if (!s.has_device_traces) tables.notes << QString::fromStdString(noHistoryHint());
    const int64_t entry = entry_ >= 0 ? entry_ : summarizeDevice(s, device_).peak_entry;
    tables.tables = {snapshotSummaryTable(s), snapshotAliveTable(s, device_, entry),
                     snapshotStateTable(s, device_, entry), snapshotSegmentTable(s),
                     snapshotOomTable(s)};
    setTables(tables, description_);
    const DrawnSpec drawn =
        drawSpec(snapshotCurveChart(s, device_, kChartPoints), mainSpecPanel(*chart_));
    (void)drawn;
    chart_->rescaleAxes();
    chart_->refresh();
}

} // namespace ts::gui
