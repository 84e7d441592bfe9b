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
    // Legend entries per row (legendInRow): as many as fit the width.
    int legendColumns() const { return legend->wrap(); }

protected:
    // Moves the legend into its own row `row` of the plot layout, entries
    // side by side in as many columns as fit the plot's width, at most
    // `max_columns`: QCustomPlot would clip an entry wider than its column
    // ("Kernel 17.1" without its "%"). Refitted before every replot.
    void legendInRow(int row, int max_columns);
    // With a legend in a row: the minimum height becomes the larger of
    // `at_least` and `besides_legend` plus the legend's rows, so that more
    // rows never squeeze the plot itself (its title cut).
    void setMinimumHeightBesidesLegend(int besides_legend, int at_least = 0);
    void changeEvent(QEvent* event) override;
    // Colours only a subclass knows (a cursor, a highlight); runs after the
    // shared styling.
    virtual void applyExtraTheme(const QPalette&) {}

private:
    void fitLegendColumns(int width);

    QCPTextElement* title_ = nullptr;
    int legend_max_columns_ = 0; // 0: the legend is not in a row of its own
    int height_besides_legend_ = 0;
    int height_at_least_ = 0;
};

} // namespace ts::gui
