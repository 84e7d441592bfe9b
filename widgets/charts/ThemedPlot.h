#pragma once
// The base of every chart: a QCustomPlot whose background, axes, grid,
// legends, titles and text follow the widget's palette, restyled and
// replotted through one call (refresh) whenever data or the theme change.
#include <qcustomplot.h>

namespace ts::gui {

class ThemedPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit ThemedPlot(QWidget* parent = nullptr);

    // A bold title row above the default axis rect, made on first use.
    QCPTextElement* titleElement();
    // Restyles everything from the palette, then replots (queued, so that
    // several changes in one event cost one replot).
    void refresh();
    // The styling alone, for exports that replot themselves.
    void applyTheme();

protected:
    void changeEvent(QEvent* event) override;
    // Colours only a subclass knows (a cursor, a highlight); runs after the
    // shared styling.
    virtual void applyExtraTheme(const QPalette&) {}

private:
    QCPTextElement* title_ = nullptr;
};

} // namespace ts::gui
