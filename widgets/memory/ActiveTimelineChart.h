#pragma once
// The Active Memory Timeline of a snapshot (snapshot/ActiveTimeline.h) drawn
// as PyTorch's memory_viz draws it: each allocation a band, stacked in the
// order they were made, coloured by the stack that made it; what is not
// drawn one by one is the grey band on top. Drawn column by column into an
// image, so a frame costs its pixels, not the allocations. Hovering a band
// names its size and stack; a click reports the entry under the cursor, a
// drag the range of entries it crossed.
#include <memory>

#include <QImage>
#include <QWidget>

#include "snapshot/ActiveTimeline.h"

namespace ts::gui {

class ActiveTimelineChart : public QWidget {
    Q_OBJECT
public:
    explicit ActiveTimelineChart(QWidget* parent = nullptr);

    void setTimeline(std::shared_ptr<const MemorySnapshot> snapshot, ActiveTimeline timeline);
    void clear();
    const ActiveTimeline& timeline() const { return timeline_; }
    // The band under widget position `pos`, -1 none (tests, the tooltip).
    int bandAt(QPoint pos) const;
    // The trace entry under x.
    int64_t entryAt(int x) const;

signals:
    void entryClicked(int64_t entry);
    // A drag across the plot: the entries from `first` to `last` (the zoom).
    void rangeSelected(int64_t first, int64_t last);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect plotRect() const;
    void render();

    std::shared_ptr<const MemorySnapshot> snapshot_;
    ActiveTimeline timeline_;
    QImage image_;                      // the plot area, drawn when the data or the size change
    int drag_from_ = -1, drag_to_ = -1; // x of a drag in progress
};

} // namespace ts::gui
