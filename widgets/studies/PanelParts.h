#pragma once
// What the Sweep, Ladder and Prune panels share: the table set-up, the table
// over the charts, the PNG export of a chart and where a row's run lives.
#include <filesystem>

#include <QString>

class QAbstractItemModel;
class QCustomPlot;
class QTableView;
class QWidget;

namespace ts::gui {

class SortFilterProxy;

// A sortable table of `model` in run order until the user sorts.
QTableView* makeExperimentTable(SortFilterProxy* proxy, QAbstractItemModel* model);
// The panel's layout: the table above, the charts below.
void layOutTableOverCharts(QWidget* panel, QTableView* table, QWidget* charts);
// Side-by-side `panels` get that many times the report chart width.
bool saveChartPng(QCustomPlot* chart, const QString& path, QString* error, int panels = 1);
// A point's run directory as recorded; the CLI records it relative to where
// it ran, so when it is not there the point is looked for in `shownDir`.
// Empty when there is no run to open.
QString pointRunDir(const std::filesystem::path& recorded, const QString& shownDir);

} // namespace ts::gui
