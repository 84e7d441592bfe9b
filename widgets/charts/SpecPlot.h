#pragma once
// Draws a report chart description (core/report/ChartSpec.h) with
// QCustomPlot: the GUI's sweep, ladder, prune, comparison and roofline charts
// and the report PNGs all come from here, so the same data looks the same in
// both.
#include <vector>

#include <QStringList>
#include <qcustomplot.h>

#include "report/ChartSpec.h"

namespace ts::gui {

class ThemedPlot;

// Where one chart is drawn: a title above an axis rect with its legend inset
// in the top-left corner.
struct SpecPanel {
    QCPTextElement* title = nullptr;
    QCPAxisRect* rect = nullptr;
    QCPLegend* legend = nullptr;
};

// The plot's default axis rect, legend and title: the one-chart layout.
SpecPanel mainSpecPanel(ThemedPlot& plot);
// A new panel in `grid` at (row, column), for plots that show several charts.
SpecPanel addSpecPanel(QCustomPlot& plot, QCPLayoutGrid* grid, int row, int column);

// What drawSpec made, for the interactive extras and for tests.
struct DrawnSpec {
    // One per spec series, in order: QCPGraph for x/y series, QCPBars for bar
    // series. A series drawn dot by dot (marker_sizes) is its legend entry,
    // which holds no data.
    std::vector<QCPAbstractPlottable*> series;
    std::vector<QCPGraph*> lines; // one per reference line
    QStringList ticks;            // categories or custom x tick labels
};

// Replaces what the panel showed with `spec`: the panel's plottables, items
// and legend entries go first. The caller refreshes (styles and replots).
DrawnSpec drawSpec(const chart::ChartSpec& spec, const SpecPanel& panel);

} // namespace ts::gui
