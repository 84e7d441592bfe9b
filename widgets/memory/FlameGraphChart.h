#pragma once
// What was alive at a moment of a snapshot as a flame graph (memory_viz's
// "Allocated memory"): the outermost frames on top, each frame as wide as
// the bytes allocated under it (snapshot/MemoryFlame.h lays it out). A click
// zooms into a frame, a click on the top row or a right click zooms out;
// hovering names the frame, its bytes and its share.
#include <QWidget>

#include "snapshot/MemoryFlame.h"

namespace ts::gui {

class FlameGraphChart : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraphChart(QWidget* parent = nullptr);

    void setFlame(MemoryFlame flame, const QString& title);
    void clear();
    const MemoryFlame& flame() const { return flame_; }
    // The node under widget position `pos`, -1 none.
    int nodeAt(QPoint pos) const;
    // The node drawn full width (0: the root).
    int zoomed() const { return zoom_; }
    void zoomTo(int node);
    // Where node `node` is drawn (empty when it is too narrow or zoomed out of view).
    QRect nodeRect(int node) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;
    QSize sizeHint() const override;

private:
    bool inZoom(int node) const;

    MemoryFlame flame_;
    QString title_;
    int zoom_ = 0;
};

} // namespace ts::gui
