#pragma once
// A QCustomPlot with the behaviour every live chart shares: horizontal zoom
// (wheel) and pan (drag), y fitted to what is visible, a hover read-out, theme
// colours, and "following" (autoscroll to the newest data) that switches off
// as soon as the user navigates.
#include <functional>

#include "charts/ThemedPlot.h"

namespace ts::gui {

class LiveChart : public ThemedPlot {
    Q_OBJECT
public:
    explicit LiveChart(const QString& title, QWidget* parent = nullptr);

    // Text for the hover read-out at chart key `key` (empty = none).
    void setHoverText(std::function<QString(double key)> text) { hover_text_ = std::move(text); }
    // What the hover read-out shows at `key` (the tooltip's text).
    QString hoverText(double key) const { return hover_text_ ? hover_text_(key) : QString(); }
    // While following, the x range shows the newest `window` keys (0 = all data).
    void setFollowWindow(double window) { follow_window_ = window; }
    void setFollowing(bool following);
    bool following() const { return following_; }
    // Value axes that should always include zero (throughput, memory, time).
    void setIncludeZero(bool include) { include_zero_ = include; }
    // The right axis keeps its range (e.g. accuracy 0..100 %) instead of fitting.
    void setFitSecondAxis(bool fit) { fit_second_axis_ = fit; }

    // Applies following and y fitting; the caller replots (once per tick).
    void updateRanges();
    // Fits the value axes to the data inside the current key range.
    void fitValueAxes();
    // Key range of all data on this chart (found = false when empty).
    QCPRange dataKeyRange(bool* found); // QCustomPlot gives plottables non-const only
    QCPGraph* addSeries(const QString& name, const QColor& color, QCPAxis* valueAxis = nullptr);

signals:
    // The user zoomed or panned: the owner stops following on all linked charts.
    void userNavigated();

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void applyExtraTheme(const QPalette& palette) override;

private:
    void fitAxis(QCPAxis* axis);

    QCPItemStraightLine* cursor_;
    std::function<QString(double)> hover_text_;
    double follow_window_ = 0;
    bool following_ = true;
    bool include_zero_ = true;
    bool fit_second_axis_ = true;
};

} // namespace ts::gui
