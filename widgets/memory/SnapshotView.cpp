#include "memory/SnapshotView.h"

#include <cmath>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include "charts/SpecPlot.h"
#include "charts/ThemedPlot.h"
#include "memory/ActiveTimelineChart.h"
#include "memory/FlameGraphChart.h"
#include "memory/SegmentMapChart.h"
#include "report/SnapshotTables.h"
#include "snapshot/ActiveTimeline.h"
#include "snapshot/AllocatorState.h"
#include "snapshot/MemoryFlame.h"
#include "snapshot/SnapshotReader.h"

namespace ts::gui {
namespace {

constexpr size_t kChartPoints = 2000;
constexpr size_t kBands = 15000; // drawn one by one, as memory_viz does

QLineEdit* filterField(const QString& placeholder, const QString& tooltip, int width) {
    auto* edit = new QLineEdit;
    edit->setPlaceholderText(placeholder);
    edit->setToolTip(tooltip);
    edit->setClearButtonEnabled(true);
    edit->setMaximumWidth(width);
    return edit;
}

QScrollArea* scrolled(QWidget* inside) {
    auto* area = new QScrollArea;
    area->setWidget(inside);
    area->setWidgetResizable(true);
    return area;
}

} // namespace

SnapshotView::SnapshotView(AppSettings* settings, QWidget* parent)
    : SpecTablesView(settings, parent), devices_(new QComboBox), groups_(new QComboBox),
      min_size_(filterField(tr("min size"),
                            tr("Only allocations of at least this size "
                               "(4096, 512K, 1.5MiB)"),
                            110)),
      frame_(filterField(tr("frame contains"),
                         tr("Only allocations whose stack has a frame with this text "
                            "(file, function or line; any case)"),
                         200)),
      entries_(filterField(tr("entries FIRST:LAST"),
                           tr("Only these trace entries (the zoom; drag on the Active Memory "
                              "Timeline); the peak is looked for there"),
                           150)),
      error_(new QLabel), charts_(new QTabWidget), chart_(new ThemedPlot),
      bands_(new ActiveTimelineChart), flame_(new FlameGraphChart),
      segment_map_(new SegmentMapChart), loader_([this](Loaded loaded) {
          if (!loaded.error.empty()) showError(QString::fromStdString(loaded.error));
          if (loaded.snapshot) setComparison(loaded.snapshot, other_description_);
          emit comparisonLoaded();
      }) {
    chart_->setMinimumHeight(220);
    charts_->addTab(bands_, tr("Active Memory Timeline"));
    charts_->addTab(chart_, tr("Allocated and reserved"));
    charts_->addTab(scrolled(flame_), tr("Flame graph"));
    charts_->addTab(segment_map_, tr("Allocator state"));
    bodyLayout()->insertWidget(0, filterBar());
    bodyLayout()->insertWidget(1, charts_);
    connect(bands_, &ActiveTimelineChart::entryClicked, this, &SnapshotView::showAliveAt);
    connect(bands_, &ActiveTimelineChart::rangeSelected, this, [this](int64_t a, int64_t b) {
        entries_->setText(QStringLiteral("%1:%2").arg(a).arg(b));
        applyFilter();
    });
    connect(devices_, &QComboBox::activated, this, [this](int index) { setDevice(index); });
    connect(groups_, &QComboBox::activated, this,
            [this](int index) { setGrouping(AliveGrouping(index)); });
    connect(this, &SpecTablesView::rowActivated, this, [this](int table, int row) {
        if (table == Ooms) showOom(row);
    });
    connect(chart_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (!snapshot_) return;
        const double x = chart_->xAxis->pixelToCoord(event->pos().x());
        const auto size = int64_t(snapshot_->traceSize(device_));
        if (size > 0) showAliveAt(std::clamp(int64_t(std::llround(x)), int64_t(0), size - 1));
    });
    clear(tr("Open a PyTorch allocator snapshot (torch.cuda.memory._dump_snapshot's pickle)."));
}

QWidget* SnapshotView::filterBar() {
    auto* bar = new QWidget;
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Device:")));
    row->addWidget(devices_);
    row->addWidget(new QLabel(tr("Filter:")));
    for (QLineEdit* edit : {min_size_, frame_, entries_}) {
        row->addWidget(edit);
        connect(edit, &QLineEdit::returnPressed, this, &SnapshotView::applyFilter);
    }
    row->addWidget(new QLabel(tr("Alive by:")));
    groups_->addItems({tr("stack"), tr("user frame"), tr("size")}); // AliveGrouping's order
    groups_->setToolTip(tr("How the alive table groups what was alive then"));
    row->addWidget(groups_);
    auto* apply = new QPushButton(tr("Apply"));
    auto* reset = new QPushButton(tr("Reset"));
    auto* compare = new QPushButton(tr("Compare with…"));
    compare->setToolTip(tr("Open a second snapshot: what grew from this one to it, by stack"));
    connect(apply, &QPushButton::clicked, this, &SnapshotView::applyFilter);
    connect(reset, &QPushButton::clicked, this, [this] { setFilterText({}); });
    connect(compare, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Compare with snapshot"), {}, tr("Snapshots (*.pickle *.pkl);;All files (*)"));
        if (!path.isEmpty()) compareWith(path);
    });
    for (QPushButton* b : {apply, reset, compare})
        row->addWidget(b);
    error_->setStyleSheet(QStringLiteral("color: #c0392b"));
    row->addWidget(error_, 1);
    return bar;
}

void SnapshotView::clear(const QString& message) {
    snapshot_.reset();
    other_.reset();
    devices_->clear();
    chart_->clearPlottables();
    chart_->clearItems();
    chart_->refresh();
    bands_->clear();
    flame_->clear();
    segment_map_->clear();
    SpecTablesView::clear(message);
}

void SnapshotView::setSnapshot(std::shared_ptr<const MemorySnapshot> snapshot,
                               const QString& description) {
    if (!snapshot) return clear();
    snapshot_ = std::move(snapshot);
    other_.reset();
    description_ = description;
    devices_->clear();
    for (int d = 0; d < snapshot_->devices(); ++d)
        devices_->addItem(tr("cuda:%1").arg(d));
    for (QLineEdit* edit : {min_size_, frame_, entries_})
        edit->clear();
    filter_ = {};
    showError({});
    setDevice(0);
}

void SnapshotView::setDevice(int device) {
    if (!snapshot_ || device < 0 || device >= std::max(1, snapshot_->devices())) return;
    device_ = device;
    devices_->setCurrentIndex(device);
    entry_ = -1;
    // Entry numbers are a device's own: a range of another device's trace may not fit.
    entries_->clear();
    filter_.first_entry = 0;
    filter_.last_entry = -1;
    rebuild();
    redrawTimeline();
}

void SnapshotView::showAliveAt(int64_t entry) {
    entry_ = entry;
    rebuild();
}

int64_t SnapshotView::shownEntry() const {
    return entry_ >= 0 || !snapshot_ ? entry_ : snapshotPeakEntry(*snapshot_, device_, filter_);
}

QString SnapshotView::filterError() const {
    return error_->text();
}

void SnapshotView::showError(const QString& text) {
    error_->setText(text);
}

void SnapshotView::setFilterText(const SnapshotFilterText& text) {
    min_size_->setText(QString::fromStdString(text.min_size));
    frame_->setText(QString::fromStdString(text.frame));
    entries_->setText(QString::fromStdString(text.entries));
    applyFilter();
}

bool SnapshotView::applyFilter() {
    try {
        const SnapshotFilterText text{min_size_->text().trimmed().toStdString(),
                                      frame_->text().trimmed().toStdString(),
                                      entries_->text().trimmed().toStdString()};
        SnapshotFilter filter = parseSnapshotFilter(text, "Min size", "Entries");
        if (snapshot_) (void)filterRange(*snapshot_, device_, filter); // throws when outside
        filter_ = std::move(filter);
    } catch (const std::invalid_argument& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    showError({});
    entry_ = -1;
    if (!snapshot_) return true;
    rebuild();
    redrawTimeline();
    return true;
}

void SnapshotView::setGrouping(AliveGrouping grouping) {
    grouping_ = grouping;
    groups_->setCurrentIndex(int(grouping));
    if (snapshot_) rebuild();
}

// An OOM row activated: the moment it failed, on its device, in every view.
void SnapshotView::showOom(int row) {
    const table::TableSpec ooms = snapshotOomTable(*snapshot_);
    if (row < 0 || row >= int(ooms.rows.size())) return;
    const auto device = int(ooms.rows[size_t(row)][0].value);
    const auto entry = int64_t(ooms.rows[size_t(row)][1].value);
    if (device != device_) setDevice(device);
    showAliveAt(entry);
}

void SnapshotView::redrawTimeline() {
    bands_->setTimeline(snapshot_, activeTimeline(*snapshot_, device_, kBands, filter_));
}

void SnapshotView::compareWith(const QString& path) {
    other_description_ = path;
    loader_.start([file = path.toStdString()](const CancelFlag&) {
        Loaded loaded;
        try {
            loaded.snapshot = std::make_shared<const MemorySnapshot>(readMemorySnapshot(file));
        } catch (const std::exception& e) {
            loaded.error = e.what();
        }
        return loaded;
    });
}

void SnapshotView::setComparison(std::shared_ptr<const MemorySnapshot> other,
                                 const QString& description) {
    other_ = std::move(other);
    other_description_ = description;
    if (snapshot_) rebuild();
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
    if (!filter_.empty())
        tables.notes << tr("Filter: %1.").arg(QString::fromStdString(filter_.describe()));
    const int64_t entry = shownEntry();
    AllocatorState state = allocatorStateAt(s, device_, entry); // the table's and the map's
    tables.tables = {
        snapshotSummaryTable(s), snapshotAliveTable(s, device_, entry, filter_, grouping_),
        snapshotStateTable(state, device_), snapshotSegmentTable(s), snapshotOomTable(s)};
    if (other_) {
        tables.notes << tr("Compared with B = %1.").arg(QFileInfo(other_description_).fileName());
        for (table::TableSpec& diff : snapshotDiffTables(s, *other_))
            tables.tables.push_back(std::move(diff));
    }
    setTables(tables, description_);
    const DrawnSpec drawn =
        drawSpec(snapshotCurveChart(s, device_, kChartPoints, filter_), mainSpecPanel(*chart_));
    (void)drawn;
    chart_->rescaleAxes();
    chart_->refresh();
    flame_->setFlame(memoryFlame(s, snapshotAlive(s, device_, entry, filter_)),
                     tr("What was alive after entry %1 of cuda:%2, by frame (outermost on top)")
                         .arg(entry)
                         .arg(device_));
    segment_map_->setState(snapshot_, std::move(state), device_);
}

} // namespace ts::gui
