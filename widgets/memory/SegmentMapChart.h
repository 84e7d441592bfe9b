#pragma once
// Allocator State History drawn (MemoryViz's segment view): the segments a
// device had reserved after a trace entry, end to end in address order and
// wrapped across rows like a memory map, each block in its stack's colour,
// pending frees striped, what the segment holds free left pale. So the
// fragmentation shows: much pale between blocks is memory reserved and not
// allocated. Hovering names the block (size, address, stack) or the free gap.
#include <memory>

#include <QWidget>

#include "snapshot/AllocatorState.h"

namespace ts::gui {

class SegmentMapChart : public QWidget {
    Q_OBJECT
public:
    explicit SegmentMapChart(QWidget* parent = nullptr);

    void setState(std::shared_ptr<const MemorySnapshot> snapshot, AllocatorState state, int device);
    void clear();
    const AllocatorState& state() const { return state_; }
    // What is under `pos`, in words ("" for nothing): the tooltip.
    QString describeAt(QPoint pos) const;
    // The position at which byte `offset` of the map (segments end to end) is drawn.
    QPoint pointOf(int64_t offset) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect plotRect() const;
    int rows() const;
    double bytesPerRow() const;
    int64_t offsetAt(QPoint pos) const; // -1 outside

    std::shared_ptr<const MemorySnapshot> snapshot_;
    AllocatorState state_;
    int device_ = 0;
};

} // namespace ts::gui
