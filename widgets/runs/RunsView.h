#pragma once
// The Runs tab: every run found under ./runs and the user's folders (also runs
// written by trainscope-cli), sortable and filterable; selecting several
// compares them side by side (table + bar charts), exportable as CSV and PNG.
#include <vector>

// Scanning the run folders is a one-shot load with one result (jobs/OneShot).
#include <QWidget>

#include "jobs/OneShot.h"
#include "runs/RunRow.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace ts::gui {

class AppSettings;
class ComparisonCharts;
class RunComparisonModel;
class RunListModel;
class SortFilterProxy;

class RunsView : public QWidget {
    Q_OBJECT
public:
    explicit RunsView(AppSettings& settings, QWidget* parent = nullptr);

    RunListModel* runModel() const { return runs_; }
    RunComparisonModel* comparisonModel() const { return comparison_; }
    ComparisonCharts* charts() const { return charts_; }
    QTableView* runTable() const { return table_; }
    QStringList roots() const;
    bool isScanning() const { return scan_.isRunning(); }

    // Selects these run directories (replacing the selection); returns how many were found.
    int selectRuns(const QStringList& dirs);
    bool exportCsv(const QString& path, QString* error);
    bool exportPng(const QString& path, QString* error);
    // The selected runs' comparison report through core (as `trainscope-cli
    // compare --out`): comparison.csv, report.md and the charts as PNG in `dir`.
    bool exportReport(const QString& dir, QString* error);

public slots:
    void rescan();
    void addFolder(const QString& dir);
    // Adds or refreshes one run (e.g. the run that just finished).
    void addRun(const QString& dir);

signals:
    void openRequested(const QString& dir);
    void scanFinished(int runs);

private:
    QWidget* buildRunList();
    QWidget* buildComparison();
    void onScanned(std::vector<RunRow> rows);
    void showRows(std::vector<RunRow> rows);
    void updateComparison();
    void openSelected();
    void chooseFolder();
    void removeFolder();
    void exportCsvInteractive();
    void exportPngInteractive();
    void exportReportInteractive();
    std::vector<RunRow> selectedRows() const;

    AppSettings& settings_;
    RunListModel* runs_;
    SortFilterProxy* proxy_;
    RunComparisonModel* comparison_;
    QTableView* table_ = nullptr;
    QTableView* comparison_table_ = nullptr;
    ComparisonCharts* charts_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QLabel* roots_label_ = nullptr;
    bool rescan_pending_ = false;
    OneShot<std::vector<RunRow>> scan_; // last: joined first
};

} // namespace ts::gui
