#pragma once
// Memory ▸ Allocator Snapshot: a PyTorch allocator snapshot (docs/memory-
// snapshots.md) as the CLI's memory-stats shows it, with two charts over the
// trace: the Active Memory Timeline (a band per allocation) and allocated
// and reserved memory. A click on either shows what was alive after that
// entry, by stack, in place of the peak's table.
#include <memory>

#include "common/SpecTablesView.h"
#include "snapshot/MemorySnapshot.h"

class QComboBox;

namespace ts::gui {

class ActiveTimelineChart;
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
    ThemedPlot* chart() const { return chart_; }
    ActiveTimelineChart* bands() const { return bands_; }

    // The tables, in order.
    enum Table { Devices, Alive, State, Segments, Ooms };

private:
    void rebuild();

    std::shared_ptr<const MemorySnapshot> snapshot_;
    QString description_;
    QComboBox* devices_;
    ThemedPlot* chart_;
    ActiveTimelineChart* bands_;
    int device_ = 0;
    int64_t entry_ = -1; // -1: the peak
};

} // namespace ts::gui
