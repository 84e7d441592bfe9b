#pragma once
// Memory ▸ Allocator Snapshot: a PyTorch allocator snapshot (docs/memory-
// snapshots.md) as the CLI's memory-stats shows it, with charts over the
// trace: the Active Memory Timeline (a band per allocation; drag to zoom),
// allocated and reserved memory, and for one moment (the peak, or the entry
// clicked on either chart) the flame graph of what was alive and the
// allocator's segments. A filter (size, frame text, entries) narrows the
// timeline, the peak, the flame graph and the alive table; a second snapshot
// can be compared with this one (what grew).
#include <memory>

#include "common/SpecTablesView.h"
#include "jobs/OneShot.h"
#include "report/SnapshotTables.h"
#include "snapshot/MemorySnapshot.h"
#include "snapshot/SnapshotFilter.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace ts::gui {

class ActiveTimelineChart;
class FlameGraphChart;
class SegmentMapChart;
class ThemedPlot;

class SnapshotView : public SpecTablesView {
    Q_OBJECT
public:
    explicit SnapshotView(AppSettings* settings = nullptr, QWidget* parent = nullptr);

    void setSnapshot(std::shared_ptr<const MemorySnapshot> snapshot, const QString& description);
    void clear(const QString& message = {});
    int device() const { return device_; }
    void setDevice(int device);
    // What was alive after trace entry `entry` (-1: at the peak).
    void showAliveAt(int64_t entry);
    int64_t aliveEntry() const { return entry_; }
    // The entry the moment's views show: the clicked one, else the (filtered) peak.
    int64_t shownEntry() const;
    // From the filter fields; false (and the reason shown) for a bad value.
    bool applyFilter();
    void setFilterText(const SnapshotFilterText& text); // fills the fields and applies
    const SnapshotFilter& filter() const { return filter_; }
    // How the alive table groups what was alive: by stack, user frame or size.
    void setGrouping(AliveGrouping grouping);
    AliveGrouping grouping() const { return grouping_; }
    QString filterError() const;
    // B to compare with this one: read off the GUI thread; its tables follow.
    void compareWith(const QString& path);
    void setComparison(std::shared_ptr<const MemorySnapshot> other, const QString& description);
    bool comparing() const { return other_ != nullptr; }

    ThemedPlot* chart() const { return chart_; }
    ActiveTimelineChart* bands() const { return bands_; }
    FlameGraphChart* flame() const { return flame_; }
    SegmentMapChart* segments() const { return segment_map_; }
    QTabWidget* charts() const { return charts_; }

    // The tables, in order (then, when comparing, the two of memory-diff).
    enum Table { Devices, Alive, State, Segments, Ooms, DiffDevices, DiffStacks };

signals:
    void comparisonLoaded(); // compareWith's file read (or refused: filterError says why)

private:
    QWidget* filterBar();
    void rebuild();
    void redrawTimeline();
    void showError(const QString& text);
    void showOom(int row);

    struct Loaded {
        std::shared_ptr<const MemorySnapshot> snapshot;
        std::string error;
    };

    std::shared_ptr<const MemorySnapshot> snapshot_, other_;
    QString description_, other_description_;
    QComboBox *devices_, *groups_;
    QLineEdit *min_size_, *frame_, *entries_;
    QLabel* error_;
    QTabWidget* charts_;
    ThemedPlot* chart_;
    ActiveTimelineChart* bands_;
    FlameGraphChart* flame_;
    SegmentMapChart* segment_map_;
    SnapshotFilter filter_;
    AliveGrouping grouping_ = AliveGrouping::Stack;
    OneShot<Loaded> loader_;
    int device_ = 0;
    int64_t entry_ = -1; // -1: the peak
};

} // namespace ts::gui
