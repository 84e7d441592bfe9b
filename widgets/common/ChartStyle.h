#pragma once
// Palette-following looks shared by the charts of the Experiments and
// Roofline views: axes, grid, titles and legends in the widget's palette.
#include <qcustomplot.h>

namespace ts::gui {

void styleAxisRect(QCPAxisRect* rect, const QPalette& palette);
void styleTitle(QCPTextElement* title, const QPalette& palette, const QFont& font);
void styleLegend(QCPLegend* legend, const QPalette& palette);
// The whole plot: background, every axis rect and the default legend.
void stylePlot(QCustomPlot& plot);

} // namespace ts::gui
